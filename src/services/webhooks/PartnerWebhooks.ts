import { ApiError } from '../../errors/ApiError.js';
import type { BodyValidator } from '../../bodyParsing/createBodyValidator.js';
import { parseJsonBody } from '../../bodyParsing/parseJsonBody.js';
import type { WebhookBody, WebhookBodyWithSecret, WebhookRegistrar } from './WebhookRegistrar.js';

/** The registration body once it passed its schema. */
interface WebhookRequestBody {
  readonly url: string;
  readonly event_types: readonly string[];
}

/**
 * The partner API's webhook use cases: the body is parsed and checked against its schema before
 * the registrar checks the target, and "no endpoint" becomes the catalogue's 404. The partner id
 * always comes from the caller's key, so a partner only ever reads or changes its own endpoint.
 */
export class PartnerWebhooks {
  constructor(
    private readonly registrar: WebhookRegistrar,
    private readonly validator: BodyValidator,
  ) {}

  /** PUT /webhook: `created` tells the first registration (which carries the secret) from a replace. */
  async register(partnerId: string, bytes: Uint8Array): Promise<{ created: boolean; body: WebhookBody | WebhookBodyWithSecret }> {
    const parsed = parseJsonBody(bytes);
    if (!parsed.ok) throw new ApiError('INVALID_PAYLOAD', 'The request body is not a valid JSON object.', parsed.problems);
    const problems = this.validator.validate('webhook', parsed.value);
    if (problems.length > 0) throw new ApiError('INVALID_PAYLOAD', 'The webhook registration is invalid.', problems);
    const request = parsed.value as WebhookRequestBody;
    const body = await this.registrar.register(partnerId, { url: request.url, eventTypes: request.event_types });
    return { created: 'secret' in body, body };
  }

  async get(partnerId: string): Promise<WebhookBody> {
    return found(await this.registrar.get(partnerId));
  }

  async rotateSecret(partnerId: string): Promise<WebhookBodyWithSecret> {
    return found(await this.registrar.rotateSecret(partnerId));
  }

  async remove(partnerId: string): Promise<void> {
    if (!(await this.registrar.remove(partnerId))) throw new ApiError('WEBHOOK_NOT_FOUND');
  }
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw new ApiError('WEBHOOK_NOT_FOUND');
  return value;
}

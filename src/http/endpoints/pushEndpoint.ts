import { ApiError } from '../../errors/ApiError.js';
import type { BatchKind } from '../../domain/model/BatchKind.js';
import type { AppServices, Partner } from '../../services/AppServices.js';
import type { Endpoint } from '../Endpoint.js';
import { readJsonBody } from '../readJsonBody.js';

/**
 * POST /trade-records, POST /daily-close, PUT /stores, PUT /products, PUT /mappings/transaction-types:
 * 202 with the acknowledgement on first receipt, 200 on a repeat (contract §2.2).
 * /trade-records calls count against the partner's rate limit.
 */
export function pushEndpoint(kind: BatchKind, options: { rateLimited: boolean }): Endpoint {
  return async ({ request, services, partner }) => {
    // The rate-limit decision (two storage round trips) is taken while the body is read and
    // validated; the push waits for it before its first write, and a refusal wins over any other
    // error, so a limited call is answered 429 and never writes, exactly as if it were checked first.
    const admission = options.rateLimited ? admit(services, partner) : Promise.resolve();
    // A refusal may arrive before anyone awaits it; it is awaited below, so it is not unhandled.
    admission.catch(() => undefined);
    try {
      const bytes = await readJsonBody(request, services.config.maxRequestBodyBytes);
      const ack = await services.ingestion.push(partner.partnerId, services.processors[kind], bytes, admission);
      return { status: ack.status === 'ACCEPTED' ? 202 : 200, body: ack, batchId: ack.batch_id };
    } catch (error) {
      await admission;
      throw error;
    }
  };
}

async function admit(services: AppServices, partner: Partner): Promise<void> {
  const decision = await services.rateLimiter.take(partner.partnerId, services.rateLimitFor(partner), services.clock());
  if (!decision.allowed) throw new ApiError('RATE_LIMITED', undefined, [], decision.retryAfterSeconds);
}

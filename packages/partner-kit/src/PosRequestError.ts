/**
 * A refusal the client does not retry: the body must be fixed (400, 403, 413, 415), the key (401)
 * or the base URL (404, or a redirect, which the kit never follows).
 * `sent` is false when the kit refused the body itself, with the service's own rules and limit,
 * before sending anything of the day or upload (the body then carries `request_id` "offline").
 */
export class PosRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly batchId?: string,
    readonly sent = true,
  ) {
    const code = errorCodeOf(body);
    // A missing or unknown key is answered 401 with no body (as the Functions host does), and so is
    // a path no function serves 404: most often a baseUrl without its /pos/v1.
    const hint = code !== undefined ? '' : (bodylessHints[status] ?? '');
    const who = sent ? 'The service refused the request' : 'The kit refused the request before sending anything';
    super(`${who}: ${status}${code === undefined ? '' : ` ${code}`}${hint}${batchId ? ` (batch_id ${batchId})` : ''}`);
    this.name = 'PosRequestError';
  }
}

/** A redirect, which the kit does not follow: it would send the API key on to the address it names. */
const redirectHint = ': a redirect, not followed (it would send the API key on); set baseUrl to the address it names';

/** What a bodyless answer most likely means: of the Functions host, or of something on the way. */
const bodylessHints: Readonly<Record<number, string>> = {
  301: redirectHint,
  302: redirectHint,
  303: redirectHint,
  307: redirectHint,
  308: redirectHint,
  401: ': check the API key sent as x-functions-key',
  404: ': no such path; check that baseUrl ends in /pos/v1 (e.g. https://<host>/pos/v1)',
};

/** The service's error code in an answer's body; undefined when the body is not the service's error. */
export function errorCodeOf(body: unknown): string | undefined {
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AttemptOutcome, DeliveryErrorClass } from '../events/DeliveryFailure.js';
import type { CheckedTarget, WebhookTargetGuard } from './WebhookTargetGuard.js';

export interface WebhookRequest {
  /** The registered URL, checked again (and resolved) by this attempt. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The exact signed bytes. */
  readonly body: Buffer;
}

export interface WebhookSenderOptions {
  readonly guard: WebhookTargetGuard;
  /** The whole attempt (resolution, connection, TLS, request, response headers); 10 s in service. */
  readonly timeoutMs: number;
  /** Extra trusted certificate authorities, for test receivers with their own CA only. */
  readonly ca?: string | Buffer;
}

/** What a delivery attempt reports for each reason the target guard refused its URL. */
const refusalClass = {
  INVALID_URL: 'TARGET_REFUSED',
  NOT_HTTPS: 'TARGET_REFUSED',
  NOT_PUBLIC: 'TARGET_REFUSED',
  UNRESOLVABLE: 'DNS',
  LOOKUPS_BUSY: 'LOOKUPS_BUSY',
} as const satisfies Record<string, DeliveryErrorClass>;

const tlsErrorCodes = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/**
 * Makes one webhook delivery attempt: resolve and check the target, connect to a checked address
 * (never resolving again), POST the signed body, and judge the answer by its status line alone.
 * The response body is never read; redirects are never followed; the attempt ends, whatever
 * happens, when its time is up. Neither body nor secret reaches any log or error from here.
 */
export class WebhookSender {
  constructor(private readonly options: WebhookSenderOptions) {}

  async attempt(request: WebhookRequest): Promise<AttemptOutcome> {
    const started = Date.now();
    const checked = await withTimeout(this.options.guard.check(request.url), this.options.timeoutMs);
    if (checked === undefined) return { ok: false, errorClass: 'TIMEOUT' };
    if (!checked.ok) return { ok: false, errorClass: refusalClass[checked.reason] };
    const remaining = this.options.timeoutMs - (Date.now() - started);
    if (remaining <= 0) return { ok: false, errorClass: 'TIMEOUT' };
    return this.#post(checked, request, remaining);
  }

  #post(checked: CheckedTarget, request: WebhookRequest, timeoutMs: number): Promise<AttemptOutcome> {
    const { url } = checked.target;
    const addresses = checked.addresses;
    // Hands the connection the addresses already checked: no second resolution between the check
    // and the connection, which is what a DNS-rebinding attack relies on.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all)
        callback(
          null,
          addresses.map((address) => ({ address, family: isIP(address) })),
        );
      else callback(null, addresses[0] ?? '', isIP(addresses[0] ?? ''));
    };
    const requestOptions: https.RequestOptions = {
      method: 'POST',
      protocol: url.protocol,
      hostname: checked.target.host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...request.headers, 'content-length': String(request.body.length), 'user-agent': 'POS-Ingestion-Webhooks/1' },
      lookup: pinned,
      // A connection of its own per attempt: nothing pooled across partners or addresses.
      agent: false,
      ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
    };
    const send = url.protocol === 'https:' ? https.request : http.request;

    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: AttemptOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const req = send(requestOptions, (res) => {
        const status = res.statusCode ?? 0;
        const retryAfterSeconds = parseRetryAfter(res.headers['retry-after']);
        // The body is not read: the status line says all the service needs.
        res.destroy();
        req.destroy();
        if (status >= 200 && status < 300) settle({ ok: true, status });
        else
          settle({ ok: false, errorClass: statusClass(status), status, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });
      });
      const timer = setTimeout(() => {
        settle({ ok: false, errorClass: 'TIMEOUT' });
        req.destroy();
      }, timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        settle({ ok: false, errorClass: tlsErrorCodes.test(error.code ?? '') ? 'TLS' : 'NETWORK' });
      });
      req.end(request.body);
    });
  }
}

function statusClass(status: number): DeliveryErrorClass {
  if (status >= 300 && status < 400) return 'REDIRECT';
  if (status === 410) return 'GONE';
  return 'HTTP_ERROR';
}

/** Retry-After as seconds from now: a number of seconds or an HTTP date; undefined otherwise. */
function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      resolve(undefined);
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import { isIP } from 'node:net';

/**
 * Longest webhook URL accepted (the registration schema states the same bound).
 * @internal read by the test of the limit instead of restating it.
 */
export const maxWebhookUrlLength = 2048;

/** A webhook URL that passed the syntax rules; its addresses are checked separately. */
export interface WebhookUrl {
  readonly url: URL;
  /** Host name or IP address, without IPv6 brackets. */
  readonly host: string;
  /** The host is an IP address written in the URL (nothing to resolve). */
  readonly isAddress: boolean;
}

type TargetRefusal = 'INVALID_URL' | 'NOT_HTTPS' | 'NOT_PUBLIC' | 'UNRESOLVABLE';

export interface TargetProblem {
  readonly ok: false;
  readonly reason: TargetRefusal;
  /** For the partner: says what is wrong without echoing what a host name resolved to. */
  readonly message: string;
}

const problem = (reason: TargetRefusal, message: string): TargetProblem => ({ ok: false, reason, message });

/**
 * The syntax rules of a webhook target: an absolute `https` URL (plain `http` only where private
 * targets are allowed, and then only to non-public addresses, checked with the addresses), with a
 * host, no user name or password (they would sit in storage and logs), no fragment (never sent),
 * no whitespace or control characters (which URL parsing would silently drop).
 */
export function parseWebhookUrl(
  raw: string,
  options: { readonly allowPrivate: boolean },
): { ok: true; target: WebhookUrl } | TargetProblem {
  if (raw.length === 0 || raw.length > maxWebhookUrlLength) return problem('INVALID_URL', `must be 1 to ${maxWebhookUrlLength} characters`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return problem('INVALID_URL', 'must not contain spaces or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return problem('INVALID_URL', 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPrivate)) return problem('NOT_HTTPS', 'must use https');
  if (url.username !== '' || url.password !== '') return problem('INVALID_URL', 'must not contain a user name or password');
  if (url.hash !== '' || raw.includes('#')) return problem('INVALID_URL', 'must not contain a fragment');
  // Port 0 parses, yet no connection to it can succeed: every event would fail for 24 hours.
  if (url.port === '0') return problem('INVALID_URL', 'must not name port 0');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return problem('INVALID_URL', 'must name a host');
  return { ok: true, target: { url, host, isAddress: isIP(host) !== 0 } };
}

import { classifyAddress, type AddressClass } from './classifyAddress.js';
import type { TargetProblem, WebhookUrl } from './parseWebhookUrl.js';

/** Never a receiver, whatever the setting: the platform's own endpoints and non-unicast addresses. */
const neverAllowed: ReadonlySet<AddressClass> = new Set(['cloud-metadata', 'unspecified', 'multicast', 'broadcast', 'invalid']);

/**
 * Decides whether a webhook may be sent to a target given every address its host resolved to
 * (or the address written in the URL). Every address must pass: a host name with one public and
 * one private record is refused, since either may be the one connected to.
 *
 * By default only public addresses over https pass. Where private targets are allowed (local
 * development and tests), private, loopback and link-local addresses pass too, and plain http is
 * accepted only when every address is non-public, so that a signed event never crosses the
 * internet unencrypted.
 */
export function checkTargetAddresses(
  target: WebhookUrl,
  addresses: readonly string[],
  options: { readonly allowPrivate: boolean },
): { ok: true } | TargetProblem {
  const where = target.isAddress ? 'must be a public address' : 'must resolve to public addresses only';
  // The same words as for a private address: telling the two apart would tell a partner which
  // internal names exist as the service's network sees them.
  if (addresses.length === 0) return { ok: false, reason: 'UNRESOLVABLE', message: where };
  const classes = addresses.map(classifyAddress);
  for (const kind of classes) {
    if (kind === 'public') continue;
    if (!options.allowPrivate || neverAllowed.has(kind)) {
      // An address the partner wrote may be named; what a host name resolved to is not told.
      const detail = target.isAddress ? ` (this one is ${kind === 'invalid' ? 'not a unicast address' : kind})` : '';
      return { ok: false, reason: 'NOT_PUBLIC', message: `${where}${detail}` };
    }
  }
  if (target.url.protocol === 'http:' && classes.some((kind) => kind === 'public')) {
    return { ok: false, reason: 'NOT_HTTPS', message: 'must use https' };
  }
  return { ok: true };
}

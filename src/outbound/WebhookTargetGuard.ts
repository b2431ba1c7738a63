import { checkTargetAddresses } from '../events/checkTargetAddresses.js';
import { parseWebhookUrl, type TargetProblem, type WebhookUrl } from '../events/parseWebhookUrl.js';
import { BoundedLookups } from './BoundedLookups.js';
import type { HostResolver } from './HostResolver.js';

/** A target that passed every check, with the addresses it was checked against. */
export interface CheckedTarget {
  readonly target: WebhookUrl;
  /** Connect to these and only these: resolving again could give another answer. */
  readonly addresses: readonly string[];
}

/**
 * The outbound target rules with name resolution: used when a partner registers a URL and again
 * on every delivery attempt, whose connection then goes to the addresses checked here (a host
 * name that resolved to a public address at registration may resolve to a private one later).
 */
export class WebhookTargetGuard {
  /** Registration and delivery share this guard, and so the turns of its lookups. */
  private readonly lookups: BoundedLookups;

  constructor(private readonly options: { readonly allowPrivate: boolean; readonly resolve: HostResolver }) {
    this.lookups = new BoundedLookups(options.resolve);
  }

  async check(rawUrl: string): Promise<({ ok: true } & CheckedTarget) | TargetProblem> {
    const parsed = parseWebhookUrl(rawUrl, this.options);
    if (!parsed.ok) return parsed;
    const { target } = parsed;
    let addresses: readonly string[];
    if (target.isAddress) addresses = [target.host];
    else {
      try {
        // No answer in time counts as no address: the target is refused (a delivery is retried).
        addresses = (await this.lookups.lookup(target.host)) ?? [];
      } catch {
        addresses = [];
      }
    }
    const verdict = checkTargetAddresses(target, addresses, this.options);
    return verdict.ok ? { ok: true, target, addresses } : verdict;
  }
}

import { checkTargetAddresses } from '../events/checkTargetAddresses.js';
import { parseWebhookUrl, type TargetProblem, type WebhookUrl } from '../events/parseWebhookUrl.js';
import { BoundedLookups } from './BoundedLookups.js';
import type { HostResolver } from './HostResolver.js';
import { LookupsBusyError } from './LookupsBusyError.js';

/** A target that passed every check, with the addresses it was checked against. */
export interface CheckedTarget {
  readonly target: WebhookUrl;
  /** Connect to these and only these: resolving again could give another answer. */
  readonly addresses: readonly string[];
}

/** The name was not looked up: every lookup turn of this process stayed taken. Try again shortly. */
export interface LookupsBusy {
  readonly ok: false;
  readonly reason: 'LOOKUPS_BUSY';
}

const lookupsBusy: LookupsBusy = { ok: false, reason: 'LOOKUPS_BUSY' };

/**
 * The outbound target rules with name resolution: used when a partner registers a URL and again
 * on every delivery attempt, whose connection then goes to the addresses checked here (a host
 * name that resolved to a public address at registration may resolve to a private one later).
 */
export class WebhookTargetGuard {
  /** Registration and delivery share this guard, and so the turns of its lookups. */
  private readonly lookups: BoundedLookups;

  constructor(
    private readonly options: {
      readonly allowPrivate: boolean;
      readonly resolve: HostResolver;
      /** Lookups at once and each one's time, turn included; BoundedLookups' defaults otherwise. */
      readonly lookups?: { readonly atOnce: number; readonly timeoutMs: number };
    },
  ) {
    this.lookups = new BoundedLookups(options.resolve, options.lookups?.atOnce, options.lookups?.timeoutMs);
  }

  /**
   * The target with the addresses to connect to, or what is wrong with it. `LOOKUPS_BUSY` says
   * nothing about the target: this process's lookups were all taken (see BoundedLookups).
   */
  async check(rawUrl: string): Promise<({ ok: true } & CheckedTarget) | TargetProblem | LookupsBusy> {
    const parsed = parseWebhookUrl(rawUrl, this.options);
    if (!parsed.ok) return parsed;
    const { target } = parsed;
    let addresses: readonly string[];
    if (target.isAddress) addresses = [target.host];
    else {
      try {
        // No answer in time counts as no address: the target is refused (a delivery is retried).
        addresses = (await this.lookups.lookup(target.host)) ?? [];
      } catch (error) {
        if (error instanceof LookupsBusyError) return lookupsBusy;
        addresses = [];
      }
    }
    const verdict = checkTargetAddresses(target, addresses, this.options);
    return verdict.ok ? { ok: true, target, addresses } : verdict;
  }
}

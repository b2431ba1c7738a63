import { HqTool } from '../src/cli/HqTool.js';
import { resolveLocalSettings } from '../src/config/resolveLocalSettings.js';
import { startLocalService } from '../src/localhost/startLocalService.js';
import { findProjectRoot } from '../src/config/findProjectRoot.js';

export interface LargePushService {
  readonly baseUrl: string;
  /** One key per partner: a partner's bodies hold at most its share of the budget, so several fill it. */
  readonly keys: readonly string[];
  stop(): Promise<void>;
}

/** Partners the large pushes are spread over: enough that their shares cover the whole budget. */
const largePushPartners = 4;

/**
 * The service with the local settings of `local.settings.sample.json` (its body budget included),
 * on the given storage, and the partners whose keys the benchmark pushes with.
 */
export async function serveForLargePushes(connectionString: string): Promise<LargePushService> {
  const settings = {
    ...resolveLocalSettings({}, findProjectRoot()),
    AzureWebJobsStorage: connectionString,
    RATE_LIMIT_PER_MINUTE: '1000000',
    MAX_TRANSACTIONS_PER_STORE_DAY: '100000',
    MAX_BATCHES_PER_STORE_DAY: '2000',
  };
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const service = await startLocalService({ settings, port: 0, logger: quiet });
  const out: string[] = [];
  const tool = new HqTool(service.services.storage, { out: (l) => out.push(l), err: () => undefined });
  const keys: string[] = [];
  for (let i = 0; i < largePushPartners; i++) {
    const partnerId = `bench-large-${process.pid}-${i}`;
    await tool.run(['partner', 'create', partnerId]);
    await tool.run(['key', 'issue', partnerId]);
    const key = out.at(-1);
    if (key === undefined) throw new Error('the HQ tool issued no key');
    keys.push(key);
    await tool.run(['store', 'register', partnerId, 'LRG-1']);
  }
  return { baseUrl: service.baseUrl, keys, stop: () => service.stop() };
}

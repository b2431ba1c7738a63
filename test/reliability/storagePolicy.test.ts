import { inject, describe, expect, it } from 'vitest';
import { createStorageClients, ensureStorage } from '../../src/storage/StorageClients.js';
import { FaultPolicy, registerAzuritePorts } from './support/faultPolicy.js';
import { seededRandom } from './support/random.js';
import { azuriteConfig } from '../support/azuriteConfig.js';

const connectionString = inject('azuriteConnectionString');
registerAzuritePorts(connectionString);

function clientsWith(policy: FaultPolicy) {
  return createStorageClients(azuriteConfig(), { policy });
}

describe('the storage pipeline policy', () => {
  it('sees table, blob and queue requests alike', async () => {
    const policy = new FaultPolicy();
    const clients = clientsWith(policy);
    await ensureStorage(clients);
    await clients.rawBatches.getBlockBlobClient(`probe/${Date.now()}.json`).uploadData(Buffer.from('{}'));
    await clients.queues.reconcile.getProperties();
    await clients.tables.partners.getEntity('probe', 'absent').catch(() => undefined);
    expect(policy.counts.table).toBeGreaterThan(0);
    expect(policy.counts.blob).toBeGreaterThan(0);
    expect(policy.counts.queue).toBeGreaterThan(0);
  });

  it('runs once per try, so the SDK retries a failed blob or queue request', async () => {
    const policy = new FaultPolicy();
    const clients = clientsWith(policy);
    await ensureStorage(clients);
    let failures = 0;
    policy.armCrash(() => false);
    // Fail the first two tries of every request: the SDK's retry policy must get through.
    const realSend = policy.sendRequest.bind(policy);
    const seen = new Map<string, number>();
    policy.sendRequest = async (request, next) => {
      const n = (seen.get(request.requestId) ?? 0) + 1;
      seen.set(request.requestId, n);
      if (n <= 2) {
        failures += 1;
        return { request, status: 503, headers: request.headers, bodyAsText: '' };
      }
      return realSend(request, next);
    };
    const name = `probe/retry-${seededRandom(7)().toString(36).slice(2)}.json`;
    await clients.rawBatches.getBlockBlobClient(name).uploadData(Buffer.from('{"a":1}'));
    await clients.queues.reconcile.getProperties();
    expect(failures).toBeGreaterThanOrEqual(4);
    expect((await clients.rawBatches.getBlockBlobClient(name).downloadToBuffer()).toString()).toBe('{"a":1}');
  });
});

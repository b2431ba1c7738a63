import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../../src/bodyParsing/parseJsonBody.js';
import { forEachStoredTradeBatch } from '../../../src/services/push/forEachStoredTradeBatch.js';
import { RawBatchStore } from '../../../src/storage/RawBatchStore.js';
import { azuriteContainer } from '../../support/azuriteClients.js';

describe('forEachStoredTradeBatch', () => {
  it('reads a body stored before a parsing rule was added, and passes over one that is not a batch', async () => {
    const raw = new RawBatchStore(await azuriteContainer(`stored-${randomUUID().slice(0, 8)}`));
    // Accepted when it arrived; the number rule added since refuses it on a new push.
    const older = Buffer.from('{"batch_id":"b-older","trade_records":[{"trade_record_id":"T1","version":2.9999999999999999}]}');
    expect(parseJsonBody(older).ok).toBe(false);
    const notABatch = Buffer.from('{"batch_id":"b-store","stores":[]}');
    for (const [id, body] of [
      ['b-older', older],
      ['b-store', notABatch],
    ] as const) {
      await raw.putOnce('P1', id, body, createHash('sha256').update(body).digest('hex'));
    }
    const seen: unknown[] = [];
    await forEachStoredTradeBatch(raw, 'P1', ['b-older', 'b-store', 'b-missing'], (body, batchId) => {
      seen.push({ batchId, version: body.trade_records[0]?.version });
    });
    expect(seen).toEqual([{ batchId: 'b-older', version: 3 }]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecord, TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { TradeRecordIndex } from '../../src/storage/TradeRecordIndex.js';
import { buildUsdTaxExcludedRecord } from '../fixtures/tradeRecordFixtures.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { businessDateOf, preparePartner } from './support/dayScenario.js';
import { chaosSettings, seededRandom, seededUuid, shuffled } from './support/random.js';

let service: TestService;
let partner: TestPartner;
const { runs, seed } = chaosSettings(8);

beforeAll(async () => {
  service = await startTestService();
  partner = await preparePartner(service, seededRandom(seed + 4));
});
afterAll(async () => {
  await service.stop();
});

/** Versions 1..5 of one transaction, plus a second version 5 modified a minute later (it must win). */
function variantsOf(id: string, storeId: string, businessDate: string): TradeRecord[] {
  const variant = (version: number, lastModifiedAt: string) =>
    buildUsdTaxExcludedRecord({ tradeRecordId: id, storeId, businessDate, version, lastModifiedAt });
  const out: TradeRecord[] = [];
  for (let version = 1; version <= 5; version++) out.push(variant(version, `2026-03-01T12:0${version}:00-05:00`));
  // The tie: same version, later instant (written in another offset, so text order would mislead).
  out.push(variant(5, '2026-03-01T19:06:00+02:00'));
  return out;
}

describe('concurrent writers of shuffled versions of the same records', () => {
  it(`always keep the highest version, ties to the later last_modified_at (${runs} permutations, seed ${seed})`, async () => {
    const random = seededRandom(seed);
    let divergences = 0;
    let writes = 0;
    const index = new TradeRecordIndex(service.services.storage.tables.tradeRecords);
    for (let run = 0; run < runs; run++) {
      const businessDate = businessDateOf(3000 + run);
      const ids = [`V-${run}-a`, `V-${run}-b`, `V-${run}-c`];
      const perRecord = ids.map((id) => shuffled(variantsOf(id, 'NYC-0001', businessDate), random));
      // Writer k sends the k-th variant (in shuffled order) of every record, all at once.
      const batches: TradeRecordBatch[] = perRecord[0]!.map((_, k) => ({
        batch_id: seededUuid(random),
        store_id: 'NYC-0001',
        business_date: businessDate,
        batch_seq: k + 1,
        trade_records: perRecord.map((variants) => variants[k]!),
      }));
      const answers = await Promise.all(shuffled(batches, random).map((b) => service.call(partner, 'POST', 'trade-records', b)));
      writes += answers.length;
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
      const stored = new Map<string, { version: number; last_modified_at: string }>();
      for await (const row of index.listDay(partner.partnerId, 'NYC-0001', businessDate)) {
        if (row.type === 'transaction') stored.set(row.summary.trade_record_id, row.summary);
      }
      for (const id of ids) {
        const row = stored.get(id);
        if (row?.version !== 5 || row.last_modified_at !== '2026-03-01T19:06:00+02:00') divergences += 1;
      }
      // Exactly one writer may see each record as current at the end; the others were told STALE_VERSION or overwrote.
    }
    console.log(`version race: ${runs} permutations, ${writes} concurrent writes, ${runs * 3} records, divergences ${divergences}`);
    expect(divergences).toBe(0);
  }, 300_000); // A bound against a hang, not a speed check: seeded runs share the machine's cores.
});

/**
 * The stores of a partner's date take turns rewriting its store_days file, on the storage emulator:
 * every store's row is in a file written before its writer is let go, far fewer files are written
 * than stores, and a holder that fails or dies leaves the turn to a writer still waiting.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { StoreDaysRewrites, type StoreDaysRewritesTiming } from '../../../src/services/reports/StoreDaysRewrites.js';
import { StoreDaysWriterTable } from '../../../src/storage/StoreDaysWriterTable.js';
import type { StoreDaysWriters } from '../../../src/services/ports/StoreDaysWriters.js';
import { azuriteTable } from '../../support/azuriteClients.js';
import { deferred } from '../../support/deferred.js';

const date = '2026-03-01';
let writers: StoreDaysWriterTable;

beforeAll(async () => {
  writers = new StoreDaysWriterTable(await azuriteTable(`t${randomUUID().replace(/-/g, '').slice(0, 20)}`));
});

const fast: Partial<StoreDaysRewritesTiming> = { pollMs: 10, leaseMs: 5_000, holdMs: 5_000, waitMs: 20_000 };

/** A partner-date's rows and the files written from them: each file is the rows listed when its build started. */
function partnerDate() {
  const rows = new Set<number>();
  const files: number[][] = [];
  const rewrite = async () => {
    const listed = [...rows];
    // Building and uploading take a while, as for a chain's day.
    await sleep(15);
    files.push(listed);
  };
  return { partnerId: `p-${randomUUID()}`, rows, files, rewrite };
}

describe('StoreDaysRewrites', () => {
  it('forty stores reconciled at once are each in a file before they are let go, in two rewrites', async () => {
    const { partnerId, rows, files, rewrite } = partnerDate();
    const stores = Array.from({ length: 40 }, (_, i) => i);
    // Each store sees the writer row through a view of its own, which notes when the store has
    // handed its row over (seen the turn held and marked dirty). The first round lasts until every
    // other store has: how many rounds follow then depends on the turn, not on the machine's speed.
    const handedOver = new Set<number>();
    const viewOf = (store: number): StoreDaysWriters => ({
      read: async (...args) => {
        const state = await writers.read(...args);
        if (state?.dirty === true && state.leaseId !== undefined) handedOver.add(store);
        return state;
      },
      write: async (partner, day, state, etag) => {
        const written = await writers.write(partner, day, state, etag);
        if (written !== undefined && state.dirty && state.leaseId !== undefined) handedOver.add(store);
        return written;
      },
    });
    // A clock that stands still: the first writer's lease cannot lapse however long a loaded
    // machine takes over the handovers, so only the turn decides the rounds.
    const still = () => new Date('2026-03-01T12:00:00Z');
    let firstRound = true;
    const slowFirstRound = async (): Promise<void> => {
      if (firstRound) {
        firstRound = false;
        while (handedOver.size < stores.length - 1) await sleep(5);
      }
      await rewrite();
    };
    const letGo: boolean[] = await Promise.all(
      stores.map(async (store) => {
        await sleep(Math.random() * 30);
        rows.add(store);
        await new StoreDaysRewrites(viewOf(store), still, undefined, fast).afterRowWritten(partnerId, date, slowFirstRound);
        return files.some((file) => file.includes(store));
      }),
    );
    expect(letGo.every(Boolean)).toBe(true);
    // The first round, then one for the 39 stores that waited; each rewriting for itself would make 40.
    expect(files).toHaveLength(2);
    expect([...files.at(-1)!].sort((a, b) => a - b)).toEqual(stores);
    // The turn is given back: the next store writes at once.
    expect(await writers.read(partnerId, date)).toMatchObject({ dirty: false, started: 2, finished: 2 });
    expect((await writers.read(partnerId, date))?.leaseId).toBeUndefined();
  });

  it('a holder whose rewrite fails gives the turn to a waiting store, which covers both', async () => {
    const rewrites = new StoreDaysRewrites(writers, () => new Date(), undefined, fast);
    const { partnerId, rows, files, rewrite } = partnerDate();
    const { promise: holding, resolve: entered } = deferred();
    rows.add(1);
    const failing = rewrites.afterRowWritten(partnerId, date, async () => {
      entered();
      await sleep(50);
      throw new Error('storage refused the upload');
    });
    await holding;
    rows.add(2);
    const waiting = rewrites.afterRowWritten(partnerId, date, rewrite);
    await expect(failing).rejects.toThrow('storage refused the upload');
    await waiting;
    expect(files).toEqual([[1, 2]]);
  });

  it('a holder that dies holding the turn leaves it once its lease runs out', async () => {
    const clockOffset = { ms: 0 };
    const clock = () => new Date(Date.now() + clockOffset.ms);
    const rewrites = new StoreDaysRewrites(writers, clock, undefined, { ...fast, leaseMs: 60_000 });
    const { partnerId, rows, files, rewrite } = partnerDate();
    const { promise: holding, resolve: entered } = deferred();
    rows.add(1);
    // The holder's process is gone: its rewrite never ends.
    void rewrites.afterRowWritten(partnerId, date, () => {
      entered();
      return new Promise<void>(() => undefined);
    });
    await holding;
    rows.add(2);
    // The waiting store reads the writer row through a view that notes its second look: by then
    // its first found the turn held and it chose to wait.
    let reads = 0;
    const { promise: lookedAgain, resolve: looksAgain } = deferred();
    const view: StoreDaysWriters = {
      read: (...args) => {
        if (++reads === 2) looksAgain();
        return writers.read(...args);
      },
      write: (...args) => writers.write(...args),
    };
    const waiting = new StoreDaysRewrites(view, clock, undefined, { ...fast, leaseMs: 60_000 }).afterRowWritten(partnerId, date, rewrite);
    await Promise.race([lookedAgain, waiting]);
    expect(files).toEqual([]);
    // A minute later the lease has run out.
    clockOffset.ms = 61_000;
    await waiting;
    expect(files).toEqual([[1, 2]]);
  });

  it('a store that takes the turn late in its time does its round and leaves the next to a store waiting', async () => {
    // The late store has waited nearly all its time; the one after it has all of its own.
    const late = { ms: 0 };
    const lateRewrites = new StoreDaysRewrites(
      writers,
      () => new Date(),
      () => performance.now() + late.ms,
      {
        ...fast,
        holdMs: 60_000,
      },
    );
    const rewrites = new StoreDaysRewrites(writers, () => new Date(), undefined, fast);
    const { partnerId, rows, files, rewrite } = partnerDate();
    const rounds: string[] = [];
    let waiting: Promise<void> | undefined;
    rows.add(1);
    await lateRewrites.afterRowWritten(partnerId, date, async () => {
      rounds.push('late');
      if (waiting) return rewrite();
      late.ms = fast.waitMs! - 1;
      // Another store's row arrives during the late store's round and waits, marked dirty.
      rows.add(2);
      waiting = rewrites.afterRowWritten(partnerId, date, async () => {
        rounds.push('next');
        await rewrite();
      });
      while (!(await writers.read(partnerId, date))?.dirty) await sleep(5);
      await rewrite();
    });
    await waiting;
    // Holding on (its hold time is a minute) would have had the late store do the second round too.
    expect(rounds).toEqual(['late', 'next']);
    expect(files.at(-1)).toEqual([1, 2]);
  });

  it('a holder leaves further rounds to a waiting store after its hold time, and every store is still covered', async () => {
    const rewrites = new StoreDaysRewrites(writers, () => new Date(), undefined, { ...fast, holdMs: 40 });
    const { partnerId, rows, files, rewrite } = partnerDate();
    let next = 0;
    const covered: boolean[] = [];
    // Rows keep arriving for a while, one writer after another.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 6; i++) {
          const store = next++;
          rows.add(store);
          await rewrites.afterRowWritten(partnerId, date, rewrite);
          covered.push(files.some((file) => file.includes(store)));
        }
      }),
    );
    expect(covered).toHaveLength(24);
    expect(covered.every(Boolean)).toBe(true);
    expect(files.at(-1)).toHaveLength(24);
  });
});

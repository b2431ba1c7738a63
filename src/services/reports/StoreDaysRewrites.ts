import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../ports/Clock.js';
import type { StoreDaysWriterState, StoreDaysWriters } from '../ports/StoreDaysWriters.js';

export interface StoreDaysRewritesTiming {
  /** How long a turn is held without a word from its holder before another writer may take it. */
  readonly leaseMs: number;
  /** How often a writer that handed its row over looks whether a round has covered it. */
  readonly pollMs: number;
  /** How long one holder goes on with further rounds before it leaves them to a writer still waiting. */
  readonly holdMs: number;
  /** How long a writer waits for its row to be covered before it fails (its message is retried). */
  readonly waitMs: number;
}

const defaultTiming: StoreDaysRewritesTiming = { leaseMs: 60_000, pollMs: 250, holdMs: 60_000, waitMs: 120_000 };

/** A writer waited longer than it may for a round that covers its row. */
class StoreDaysRewriteWaitError extends Error {
  constructor(waitMs: number) {
    super(`No rewrite of the store_days file covered this store-day's row within ${waitMs} ms.`);
    this.name = 'StoreDaysRewriteWaitError';
  }
}

/**
 * Has the store_days file of a partner's date rewritten after a store-day's row was written, with
 * one writer at a time doing the rewriting for all of them. Every store of a chain may be reconciled
 * within the same minute; if each rewrote the file (listing every store's row) and retried when
 * another got there first, that work would grow with the square of the stores and many would give
 * up. Instead, a writer whose row is written either takes the turn (a lease on the date's writer
 * row) and rewrites the file in rounds, or, while another holds it, marks the row dirty and waits
 * until a round that started after that has finished. A round is counted (and the mark cleared)
 * before it lists the rows, so it sees every row written before the mark. The holder goes on while
 * rows keep arriving, up to `holdMs`, then leaves the turn to a writer still waiting; a holder that
 * dies leaves it after `leaseMs`.
 */
export class StoreDaysRewrites {
  private readonly timing: StoreDaysRewritesTiming;

  constructor(
    private readonly writers: StoreDaysWriters,
    private readonly clock: Clock,
    private readonly elapsedMs: () => number = () => performance.now(),
    timing: Partial<StoreDaysRewritesTiming> = {},
  ) {
    this.timing = { ...defaultTiming, ...timing };
  }

  /** Call once the store-day's row is written; resolves once a rewrite that saw it has been written. */
  async afterRowWritten(partnerId: string, businessDate: string, rewrite: () => Promise<void>): Promise<void> {
    const me = randomUUID();
    const giveUpAt = this.elapsedMs() + this.timing.waitMs;
    /** The round count when this writer handed its row over: a later round covers it. */
    let handedOverAt: number | undefined;
    for (;;) {
      const state = await this.writers.read(partnerId, businessDate);
      if (handedOverAt !== undefined && state !== undefined && state.finished > handedOverAt) return;
      if (state === undefined || !this.isHeld(state)) {
        const round = (state?.started ?? 0) + 1;
        const taken = { ...this.lease(me), dirty: false, started: round, finished: state?.finished ?? 0 };
        if (await this.writers.write(partnerId, businessDate, taken, state?.etag)) {
          await this.hold(partnerId, businessDate, me, round, rewrite);
          return;
        }
        continue;
      }
      if (handedOverAt === undefined) {
        // Marked dirty (by this writer or another) after this row was written: the holder's next round lists it.
        if (!state.dirty && !(await this.writers.write(partnerId, businessDate, { ...state, dirty: true }, state.etag))) continue;
        handedOverAt = state.started;
      }
      if (this.elapsedMs() >= giveUpAt) throw new StoreDaysRewriteWaitError(this.timing.waitMs);
      await sleep(this.timing.pollMs * (0.5 + Math.random()));
    }
  }

  /** Rewrites in rounds while the turn is this writer's and rows keep arriving, then gives the turn back. */
  private async hold(partnerId: string, businessDate: string, me: string, firstRound: number, rewrite: () => Promise<void>): Promise<void> {
    const until = this.elapsedMs() + this.timing.holdMs;
    for (let round: number | undefined = firstRound; round !== undefined;) {
      try {
        await rewrite();
      } catch (error) {
        // The turn is given back marked dirty, so a waiting writer takes it and rewrites.
        await this.endRound(partnerId, businessDate, me, undefined, false).catch(() => undefined);
        throw error;
      }
      round = await this.endRound(partnerId, businessDate, me, round, this.elapsedMs() < until);
    }
  }

  /**
   * Records `round` as finished; then starts the next round if rows arrived meanwhile and
   * `goOn` (its number), or gives the turn back (undefined). A holder whose turn was taken
   * (its lease ran out) only records its round.
   */
  private async endRound(
    partnerId: string,
    businessDate: string,
    me: string,
    round: number | undefined,
    goOn: boolean,
  ): Promise<number | undefined> {
    for (;;) {
      const state = await this.writers.read(partnerId, businessDate);
      if (state === undefined) return undefined;
      const finished = Math.max(state.finished, round ?? 0);
      const mine = state.leaseId === me;
      let next: StoreDaysWriterState;
      let nextRound: number | undefined;
      if (mine && state.dirty && goOn) {
        nextRound = state.started + 1;
        next = { ...this.lease(me), dirty: false, started: nextRound, finished };
      } else if (mine) {
        next = { dirty: round === undefined || state.dirty, started: state.started, finished };
      } else {
        next = { ...state, finished };
      }
      if (await this.writers.write(partnerId, businessDate, next, state.etag)) return nextRound;
    }
  }

  private lease(me: string): { leaseId: string; leaseUntil: string } {
    return { leaseId: me, leaseUntil: new Date(this.clock().getTime() + this.timing.leaseMs).toISOString() };
  }

  private isHeld(state: StoreDaysWriterState): boolean {
    return state.leaseId !== undefined && state.leaseUntil !== undefined && state.leaseUntil > this.clock().toISOString();
  }
}

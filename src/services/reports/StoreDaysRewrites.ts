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
  /**
   * How long a writer stays, waiting and holding together: one still waiting then fails (its message
   * is retried), one holding leaves further rounds to a writer still waiting after the round under
   * way. This bounds the reconciliation's run (`reconcileRunBudgetMs` in
   * test/infra/reconcileRunBudget.ts).
   */
  readonly waitMs: number;
}

/** The writer row as a writer last wrote it, with the ETag that write got back. */
type WrittenState = StoreDaysWriterState & { readonly etag: string };

/**
 * The timing in Azure; tests pass shorter ones.
 * @internal read by the test that checks a reconciliation's run fits in functionTimeout.
 */
export const storeDaysRewritesTiming: StoreDaysRewritesTiming = { leaseMs: 60_000, pollMs: 250, holdMs: 60_000, waitMs: 120_000 };

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
    this.timing = { ...storeDaysRewritesTiming, ...timing };
  }

  /** Call once the store-day's row is written; resolves once a rewrite that saw it has been written. */
  async afterRowWritten(partnerId: string, businessDate: string, rewrite: () => Promise<void>): Promise<void> {
    const me = randomUUID();
    const leaveAt = this.elapsedMs() + this.timing.waitMs;
    /** The round count when this writer handed its row over: a later round covers it. */
    let handedOverAt: number | undefined;
    for (;;) {
      const state = await this.writers.read(partnerId, businessDate);
      if (handedOverAt !== undefined && state !== undefined && state.finished > handedOverAt) return;
      if (state === undefined || !this.isHeld(state)) {
        const round = (state?.started ?? 0) + 1;
        const taken = { ...this.lease(me), dirty: false, started: round, finished: state?.finished ?? 0 };
        const etag = await this.writers.write(partnerId, businessDate, taken, state?.etag);
        if (etag !== undefined) {
          await this.hold(partnerId, businessDate, me, { ...taken, etag }, rewrite, leaveAt);
          return;
        }
        continue;
      }
      if (handedOverAt === undefined) {
        // Marked dirty (by this writer or another) after this row was written: the holder's next round lists it.
        if (!state.dirty && (await this.writers.write(partnerId, businessDate, { ...state, dirty: true }, state.etag)) === undefined)
          continue;
        handedOverAt = state.started;
      }
      if (this.elapsedMs() >= leaveAt) throw new StoreDaysRewriteWaitError(this.timing.waitMs);
      await sleep(this.timing.pollMs * (0.5 + Math.random()));
    }
  }

  /**
   * Rewrites in rounds while the turn is this writer's and rows keep arriving, then gives the turn
   * back: after `holdMs`, or at `leaveAt` (the end of this writer's time) if that comes first; a
   * writer that took the turn late in its wait does its one round. `written`: the row as this writer
   * last wrote it, the round under way in `started`.
   */
  private async hold(
    partnerId: string,
    businessDate: string,
    me: string,
    written: WrittenState,
    rewrite: () => Promise<void>,
    leaveAt: number,
  ): Promise<void> {
    const until = Math.min(this.elapsedMs() + this.timing.holdMs, leaveAt);
    for (let last: WrittenState | undefined = written; last !== undefined;) {
      try {
        await rewrite();
      } catch (error) {
        // The turn is given back marked dirty, so a waiting writer takes it and rewrites.
        await this.endRound(partnerId, businessDate, me, last, undefined, false).catch(() => undefined);
        throw error;
      }
      last = await this.endRound(partnerId, businessDate, me, last, last.started, this.elapsedMs() < until);
    }
  }

  /**
   * Records `round` as finished; then starts the next round if rows arrived meanwhile and `goOn`
   * (the row as written for it), or gives the turn back (undefined). A holder whose turn was taken
   * (its lease ran out) only records its round. The row is first taken to be as this writer last
   * wrote it (`last`), and read only when a write against that finds it changed.
   */
  private async endRound(
    partnerId: string,
    businessDate: string,
    me: string,
    last: WrittenState,
    round: number | undefined,
    goOn: boolean,
  ): Promise<WrittenState | undefined> {
    for (let attempt = 0; ; attempt++) {
      const state = attempt === 0 ? last : await this.writers.read(partnerId, businessDate);
      if (state === undefined) return undefined;
      const finished = Math.max(state.finished, round ?? 0);
      const mine = state.leaseId === me;
      const goesOn = mine && state.dirty && goOn;
      let next: StoreDaysWriterState;
      if (goesOn) next = { ...this.lease(me), dirty: false, started: state.started + 1, finished };
      else if (mine) next = { dirty: round === undefined || state.dirty, started: state.started, finished };
      else next = { ...state, finished };
      const etag = await this.writers.write(partnerId, businessDate, next, state.etag);
      if (etag !== undefined) return goesOn ? { ...next, etag } : undefined;
    }
  }

  private lease(me: string): { leaseId: string; leaseUntil: string } {
    return { leaseId: me, leaseUntil: new Date(this.clock().getTime() + this.timing.leaseMs).toISOString() };
  }

  private isHeld(state: StoreDaysWriterState): boolean {
    return state.leaseId !== undefined && state.leaseUntil !== undefined && state.leaseUntil > this.clock().toISOString();
  }
}

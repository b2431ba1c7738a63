import { describe, expect, it } from 'vitest';
import { isStuckDay, stuckAfterMs } from '../../src/services/isStuckDay.js';
import { pendingRunLostAfterMs } from '../../src/services/pendingRuns.js';

const closeReceivedAt = '2026-03-02T10:00:00.000Z';
const received = Date.parse(closeReceivedAt);
const at = (msAfterClose: number) => new Date(received + msAfterClose);

describe('isStuckDay', () => {
  it('takes a RECEIVED day as stuck only once its close is older than any run takes', () => {
    const day = { status: 'RECEIVED' as const, closeReceivedAt, pendingRun: null };
    expect(isStuckDay(day, at(stuckAfterMs))).toBe(false);
    expect(isStuckDay(day, at(stuckAfterMs + 1))).toBe(true);
  });

  it('leaves a day a run is still to come for, however old its close (a late batch noted one)', () => {
    const dueAt = at(stuckAfterMs + 60_000).toISOString();
    const day = { status: 'RECEIVED' as const, closeReceivedAt, pendingRun: { runId: 'late-1', dueAt } };
    expect(isStuckDay(day, at(stuckAfterMs + 60_000 + pendingRunLostAfterMs - 1))).toBe(false);
    // Once that run is itself taken as lost, the day is stuck again.
    expect(isStuckDay(day, at(stuckAfterMs + 60_000 + pendingRunLostAfterMs))).toBe(true);
  });

  it('never takes a reconciled day as stuck, nor a row whose close time cannot be read', () => {
    for (const status of ['MATCHED', 'MISMATCHED'] as const) {
      expect(isStuckDay({ status, closeReceivedAt, pendingRun: null }, at(10 * stuckAfterMs))).toBe(false);
    }
    expect(isStuckDay({ status: 'RECEIVED', closeReceivedAt: '', pendingRun: null }, at(10 * stuckAfterMs))).toBe(false);
  });
});

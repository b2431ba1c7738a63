import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { invocationTelemetry, withInvocationTelemetry } from '../../src/observability/invocationTelemetry.js';
import { logTelemetry, noTelemetry } from '../../src/observability/Telemetry.js';

describe('invocationTelemetry', () => {
  it("gives each invocation's work its own telemetry, across awaits, and none outside an invocation", async () => {
    const lines: Record<'a' | 'b', string[]> = { a: [], b: [] };
    const work = async (name: 'a' | 'b', waitMs: number) => {
      await sleep(waitMs);
      invocationTelemetry().metric('batch_failed', 1, { batch_id: name });
    };
    await Promise.all([
      withInvocationTelemetry(
        logTelemetry((line) => lines.a.push(line)),
        () => work('a', 20),
      ),
      withInvocationTelemetry(
        logTelemetry((line) => lines.b.push(line)),
        () => work('b', 5),
      ),
    ]);
    expect(lines).toEqual({ a: ['metric batch_failed 1 batch_id=a'], b: ['metric batch_failed 1 batch_id=b'] });
    expect(invocationTelemetry()).toBe(noTelemetry);
  });
});

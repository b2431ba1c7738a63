import { AsyncLocalStorage } from 'node:async_hooks';
import { noTelemetry, type Telemetry } from './Telemetry.js';

const current = new AsyncLocalStorage<Telemetry>();

/**
 * Runs a function invocation's work with its telemetry in scope, so that a figure raised deep in a
 * use case (a batch that ended FAILED, found by a push or by the sweep) is written to the log of the
 * invocation that found it, which is where Application Insights and the alert rules read it.
 */
export function withInvocationTelemetry<T>(telemetry: Telemetry, run: () => Promise<T>): Promise<T> {
  return current.run(telemetry, run);
}

/** The telemetry of the invocation whose work is running; none outside one (tests, the HQ tool). */
export function invocationTelemetry(): Telemetry {
  return current.getStore() ?? noTelemetry;
}

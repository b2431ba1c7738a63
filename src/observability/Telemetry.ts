/**
 * The figures HQ alerts on. Each is written as one log line of its own form, which Application
 * Insights keeps in `traces`; the alert rules in `infra/` find them by the line's start.
 */
export type MetricName =
  /** One per delivery attempt: value = the attempt's milliseconds; outcome, attempt, error class. */
  | 'webhook_delivery'
  /** An event given up after its retries (or a 410): value 1. */
  | 'webhook_dead_letter'
  /** A store-day reconciled MISMATCHED: value 1. */
  | 'reconciliation_mismatched'
  /** Seconds from the close's receipt to its result. */
  | 'reconciliation_lag_seconds'
  /** A batch that ended FAILED: value 1. */
  | 'batch_failed'
  /** A queue message that failed its last allowed dequeue and goes to the poison queue: value 1. */
  | 'poison_message'
  /** Messages in one poison queue, counted by a timer: value = the count; the queue's name. */
  | 'poison_messages_waiting'
  /** How long the longest-due visible reconcile message has waited, counted by a timer: seconds (0: none). */
  | 'reconcile_waiting_seconds'
  /** Store-days still RECEIVED that no run will reconcile by itself, counted hourly by a timer: value = the count. */
  | 'reconcile_stuck_days'
  /** A reconciled store-day whose report files could not be written and will not be retried: value 1. */
  | 'report_unwritten'
  /** A request of either API answered 503 because storage did not answer, was busy or refused our credentials: value 1; route, status, code. */
  | 'storage_unavailable';

export type Dimensions = Readonly<Record<string, string | number | undefined>>;

/** Where the service's figures go; the queue and HTTP adapters give each run one writing to its invocation log. */
export interface Telemetry {
  metric(name: MetricName, value: number, dimensions?: Dimensions): void;
}

/** For callers outside a function run (tests, tools): the figures go nowhere. */
export const noTelemetry: Telemetry = { metric: () => undefined };

/**
 * `metric <name> <value> key=value ...`: values are percent-encoded so that a line always splits
 * on spaces (KQL: `parse message with "metric " name " " value:real " " dimensions`). Dimensions
 * carry ids, classes, route templates and counts only; never a URL, a body or a secret.
 */
export function metricLine(name: MetricName, value: number, dimensions: Dimensions = {}): string {
  return ['metric', name, String(value), ...dimensionPairs(dimensions)].join(' ');
}

/** `key=value` for each dimension set, the value percent-encoded so that a line always splits on spaces. */
export function dimensionPairs(dimensions: Dimensions): string[] {
  return Object.entries(dimensions)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, v]) => `${key}=${encodeURIComponent(String(v))}`);
}

/** Telemetry written as log lines through `log` (an invocation context's `info`). */
export function logTelemetry(log: (line: string) => void): Telemetry {
  return {
    metric: (name, value, dimensions) => {
      log(metricLine(name, value, dimensions));
    },
  };
}

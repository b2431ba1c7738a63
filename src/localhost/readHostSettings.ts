import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { minPollingIntervalMs } from './PollingBackoff.js';

/** The parts of `host.json` the local host honours, with the Functions host's defaults filled in. */
export interface HostSettings {
  /** `extensions.http.routePrefix`, without surrounding slashes ('' when routes have no prefix). */
  readonly routePrefix: string;
  /** `extensions.queues.maxDequeueCount`: failed dequeues before a message goes to the poison queue. */
  readonly maxDequeueCount: number;
  /** `extensions.queues.batchSize`: messages fetched and run in parallel per queue. */
  readonly queueBatchSize: number;
  /**
   * `extensions.queues.newBatchThreshold`: another batch is fetched once the messages still running
   * drop to this. Left out, the queue trigger takes batchSize / 2 times the instance's processor
   * count, which it counts as 1 only on a Consumption ('Dynamic') instance; the local host takes 1.
   */
  readonly queueNewBatchThreshold: number;
  /** `extensions.queues.visibilityTimeout` in seconds: how long a failed message stays hidden. */
  readonly queueVisibilityTimeoutSeconds: number;
  /**
   * `extensions.queues.maxPollingInterval` in milliseconds: the longest pause between polls of an
   * empty queue (default 1 minute; less than 100 ms is refused, as the Functions host does).
   */
  readonly queueMaxPollingIntervalMs: number;
  /** `functionTimeout` in seconds: the host stops waiting for an invocation after this long (default 30 min). */
  readonly functionTimeoutSeconds: number;
}

/**
 * Reads `host.json`. By default the one in the current working directory (the Functions host's
 * script root), else the nearest one in a parent folder.
 */
export function readHostSettings(hostJsonPath: string = findHostJson(process.cwd())): HostSettings {
  const parsed = JSON.parse(readFileSync(hostJsonPath, 'utf8')) as unknown;
  const extensions = objectAt(parsed, 'extensions');
  const http = objectAt(extensions, 'http');
  const queues = objectAt(extensions, 'queues');

  const prefix = http?.routePrefix;
  const routePrefix = typeof prefix === 'string' ? prefix.replace(/^\/+|\/+$/g, '') : 'api';

  const dequeue = queues?.maxDequeueCount;
  const batch = queues?.batchSize;
  const newBatch = queues?.newBatchThreshold;
  const visibility = queues?.visibilityTimeout;
  const maxPolling = queues?.maxPollingInterval;
  const functionTimeout = (parsed as { functionTimeout?: unknown } | null)?.functionTimeout;

  const queueBatchSize = batch === undefined ? 16 : queueInteger(batch, 'batchSize', 1, maxQueueBatchSize);
  return Object.freeze({
    routePrefix,
    maxDequeueCount: dequeue === undefined ? 5 : queueInteger(dequeue, 'maxDequeueCount', 1),
    queueBatchSize,
    queueNewBatchThreshold:
      newBatch === undefined ? oneProcessorNewBatchThreshold(queueBatchSize) : queueInteger(newBatch, 'newBatchThreshold', 0),
    queueVisibilityTimeoutSeconds: typeof visibility === 'string' ? timeSpanSeconds(visibility) : 0,
    queueMaxPollingIntervalMs: maxPolling === undefined ? 60_000 : maxPollingIntervalMs(maxPolling),
    functionTimeoutSeconds: typeof functionTimeout === 'string' ? timeSpanSeconds(functionTimeout) : 30 * 60,
  });
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Record<string, unknown>)[key];
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : undefined;
}

/** The queue trigger's largest batch (QueuesOptions.MaxBatchSize). */
const maxQueueBatchSize = 32;

/**
 * A whole-number queue setting, refused at start-up outside its range as the queue trigger's
 * options refuse it (batchSize 1–32, maxDequeueCount 1 or more, newBatchThreshold 0 or more). The
 * host's configuration reads every value as text, so `"16"` is 16 there too.
 */
function queueInteger(value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `${min} to ${max}`;
    throw new Error(`host.json: extensions.queues.${name} must be a whole number, ${range}.`);
  }
  return number;
}

/** The queue trigger's default newBatchThreshold on one processor: half the batch size. */
export function oneProcessorNewBatchThreshold(batchSize: number): number {
  return Math.floor(batchSize / 2);
}

function maxPollingIntervalMs(value: unknown): number {
  if (typeof value !== 'string') {
    throw new Error('host.json: extensions.queues.maxPollingInterval must be a time span such as "00:00:02".');
  }
  const ms = timeSpanMs(value);
  if (ms < minPollingIntervalMs) {
    throw new Error(`host.json: extensions.queues.maxPollingInterval "${value}" is below the least allowed, 00:00:00.100.`);
  }
  return ms;
}

/** Parses a .NET TimeSpan such as `00:00:30` or `1.00:00:00` into whole seconds. */
function timeSpanSeconds(value: string): number {
  return Math.floor(timeSpanMs(value) / 1000);
}

/** Parses a .NET TimeSpan such as `00:00:00.250`, `00:00:30` or `1.00:00:00` into whole milliseconds. */
function timeSpanMs(value: string): number {
  const match = /^(?:(\d+)\.)?(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`host.json: "${value}" is not a time span (hh:mm:ss).`);
  const [, days, hours, minutes, seconds, fraction] = match;
  const wholeSeconds = ((Number(days ?? 0) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds);
  return wholeSeconds * 1000 + Number((fraction ?? '').padEnd(3, '0').slice(0, 3));
}

function findHostJson(start: string): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'host.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(start, 'host.json');
  }
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The parts of `host.json` the local host honours, with the Functions host's defaults filled in. */
export interface HostSettings {
  /** `extensions.http.routePrefix`, without surrounding slashes ('' when routes have no prefix). */
  readonly routePrefix: string;
  /** `extensions.queues.maxDequeueCount`: failed dequeues before a message goes to the poison queue. */
  readonly maxDequeueCount: number;
  /** `extensions.queues.batchSize`: messages fetched and run in parallel per queue. */
  readonly queueBatchSize: number;
  /** `extensions.queues.visibilityTimeout` in seconds: how long a failed message stays hidden. */
  readonly queueVisibilityTimeoutSeconds: number;
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
  const visibility = queues?.visibilityTimeout;
  const functionTimeout = (parsed as { functionTimeout?: unknown } | null)?.functionTimeout;

  return Object.freeze({
    routePrefix,
    maxDequeueCount: positiveInteger(dequeue) ?? 5,
    queueBatchSize: Math.min(positiveInteger(batch) ?? 16, 32),
    queueVisibilityTimeoutSeconds: typeof visibility === 'string' ? timeSpanSeconds(visibility) : 0,
    functionTimeoutSeconds: typeof functionTimeout === 'string' ? timeSpanSeconds(functionTimeout) : 30 * 60,
  });
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Record<string, unknown>)[key];
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Parses a .NET TimeSpan such as `00:00:30` or `1.00:00:00` into whole seconds. */
function timeSpanSeconds(value: string): number {
  const match = /^(?:(\d+)\.)?(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?$/.exec(value.trim());
  if (!match) throw new Error(`host.json: "${value}" is not a time span (hh:mm:ss).`);
  const [, days, hours, minutes, seconds] = match;
  return ((Number(days ?? 0) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds);
}

function findHostJson(start: string): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'host.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(start, 'host.json');
  }
}

import type { Page } from './hqTypes.js';

/** One thing an error answer points at: a parameter (`/to`) or a JSON Pointer into the body. */
export interface HqErrorDetail {
  readonly path: string;
  readonly message: string;
}

/** An answer of the HQ API other than 2xx, with its stable code when the body carried one. */
export class HqApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** What exactly was wrong: the generic message alone does not say which limit was crossed. */
    readonly details: readonly HqErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'HqApiError';
  }
}

/** Dispatched on `window` when the API refuses the key. */
export const unauthorizedEvent = 'hq-console:unauthorized';

/** Items asked for per page: the most the HQ API gives. */
const pageSize = 200;

/**
 * Pages followed for one list before the console stops: a longer list is refused with a message,
 * never shown cut short, since a view that sums it (sales) would show a wrong total.
 */
const maxPages = 100;

type Query = Readonly<Record<string, string | undefined>>;

/** Calls /hq/v1 on this origin with the operator key; the key goes in the header, never the URL. */
export class HqClient {
  constructor(
    private readonly key: string,
    private readonly base = '/hq/v1',
  ) {}

  async get<T>(path: string, query: Query = {}): Promise<T> {
    return this.send<T>('GET', path, query);
  }

  /** Every item of a paged list, following `continuation`. */
  async getAll<T>(path: string, query: Query = {}): Promise<readonly T[]> {
    const pages = await this.getPages<Page<T>>(path, query);
    return pages.flatMap((page) => page.items);
  }

  /**
   * Every page of a paged list, for lists whose pages carry more than items (the grid's counts).
   * Throws LIST_TOO_LONG when the list goes on after {@link maxPages} pages.
   */
  async getPages<P extends Page<unknown>>(path: string, query: Query = {}): Promise<P[]> {
    const limit = String(pageSize);
    const pages: P[] = [await this.get<P>(path, { ...query, limit })];
    for (let continuation = pages[0]?.continuation ?? null; continuation !== null;) {
      if (pages.length === maxPages) {
        throw new HqApiError(
          0,
          'LIST_TOO_LONG',
          `This list holds more than ${(maxPages * pageSize).toLocaleString()} entries, more than the console shows at once. Narrow it: one partner, or fewer days.`,
        );
      }
      const next = await this.get<P>(path, { ...query, limit, continuation });
      pages.push(next);
      continuation = next.continuation;
    }
    return pages;
  }

  async post<T>(path: string, body?: unknown): Promise<T> {
    return this.send<T>('POST', path, {}, body ?? {});
  }

  async put<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>('PUT', path, {}, body);
  }

  private async send<T>(method: string, path: string, query: Query, body?: unknown): Promise<T> {
    const url = new URL(`${this.base}/${path}`, window.location.origin);
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, value);
    const headers: Record<string, string> = { 'x-functions-key': this.key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: body === undefined ? null : JSON.stringify(body), cache: 'no-store' });
    } catch {
      throw new HqApiError(0, 'NETWORK', 'The service could not be reached.');
    }
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) {
      // The key was revoked or expired while the page was open: the app goes back to sign-in.
      if (response.status === 401) window.dispatchEvent(new Event(unauthorizedEvent));
      const error = isErrorBody(parsed) ? parsed.error : undefined;
      throw new HqApiError(
        response.status,
        error?.code ?? `HTTP_${response.status}`,
        error?.message ?? defaultMessage(response.status),
        detailsOf(error),
      );
    }
    // The contract (docs/hq-api.md) fixes the shape of every 2xx body.
    return parsed as T;
  }
}

/** Every path segment encoded, as the contract asks for ids in paths. */
export function pathOf(...segments: string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join('/');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is { error: { code: string; message: string; details?: unknown } } {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = value.error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}

/** The well-formed entries of `details`; anything else in the body is ignored, never shown. */
function detailsOf(error: { details?: unknown } | undefined): HqErrorDetail[] {
  if (!Array.isArray(error?.details)) return [];
  return error.details.flatMap((detail: unknown) =>
    typeof detail === 'object' &&
    detail !== null &&
    'message' in detail &&
    typeof detail.message === 'string' &&
    'path' in detail &&
    typeof detail.path === 'string'
      ? [{ path: detail.path, message: detail.message }]
      : [],
  );
}

function defaultMessage(status: number): string {
  if (status === 401) return 'The key was refused.';
  if (status === 404) return 'Not available on this service.';
  return `The service answered ${status}.`;
}

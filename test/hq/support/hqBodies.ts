/**
 * Readers of HQ API response bodies: each checks the status and the outline of the body, then
 * hands it back typed as the service declares it, so a test fails with the status and body when the
 * answer is something else.
 */
import type { GridPage, GridRow } from '../../../src/hq/services/StoreDayGrid.js';
import type { StoreDayDetailBody } from '../../../src/hq/services/StoreDayDetail.js';
import type { TestResponse } from '../../support/responseBodies.js';

export interface ListBody<T> {
  readonly items: T[];
  readonly continuation: string | null;
}

export interface GridBody {
  readonly from: string;
  readonly to: string;
  readonly generated_at: string;
  readonly counts: GridPage['counts'];
  readonly items: GridRow[];
  readonly continuation: string | null;
}

export type { GridRow, StoreDayDetailBody };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(what: string, response: TestResponse): Error {
  return new Error(`Expected ${what}, got ${response.status} ${JSON.stringify(response.body ?? null).slice(0, 600)}`);
}

/** A 200 list page: `items` and `continuation`. */
export function listOf<T>(response: TestResponse): ListBody<T> {
  const body = response.body;
  if (
    response.status === 200 &&
    isRecord(body) &&
    Array.isArray(body.items) &&
    (body.continuation === null || typeof body.continuation === 'string')
  ) {
    return body as unknown as ListBody<T>;
  }
  throw fail('a list page', response);
}

export function gridOf(response: TestResponse): GridBody {
  const list = listOf<GridRow>(response);
  if (isRecord((list as unknown as Record<string, unknown>).counts)) return list as unknown as GridBody;
  throw fail('a grid page', response);
}

export function dayOf(response: TestResponse): StoreDayDetailBody {
  const body = response.body;
  if (response.status === 200 && isRecord(body) && typeof body.status === 'string' && Array.isArray(body.batches)) {
    return body as unknown as StoreDayDetailBody;
  }
  throw fail('a store-day', response);
}

/** A 200 body that is a JSON object. */
export function objectOf(response: TestResponse): Record<string, unknown> {
  if (response.status === 200 && isRecord(response.body)) return response.body;
  throw fail('an object', response);
}

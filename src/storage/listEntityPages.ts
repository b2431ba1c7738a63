import type { TableClient } from '@azure/data-tables';
import { RestError } from '@azure/core-rest-pipeline';
import { sendTableRequest, tableServiceVersion } from './sendTableRequest.js';
import { toStorageError } from './translateStorageErrors.js';

export interface EntityQuery {
  /** An OData filter, built with the SDK's `odata` template so values are quoted. */
  readonly filter: string;
  /** Properties to return (RowKey included when wanted); all when absent. */
  readonly select?: readonly string[];
}

/** Where storage stopped a listing: its continuation headers, opaque, handed back unchanged. */
export interface EntityContinuation {
  readonly partitionKey: string;
  readonly rowKey: string | undefined;
}

export interface EntityPage {
  /** The entities of the page, in key order: a page is always the next stretch of the listing. */
  readonly rows: Record<string, unknown>[];
  /** Where the next page starts; absent on the last page. */
  readonly next: EntityContinuation | undefined;
}

/**
 * Lists a table's entities page by page (up to 1,000 each, storage's own pages) as the plain
 * objects of the JSON answer, property names as stored (`RowKey`, not `rowKey`). With `from`, the
 * listing goes on where an earlier page of the same query stopped.
 */
export async function* listEntityPages(
  table: TableClient,
  query: EntityQuery,
  from?: EntityContinuation,
): AsyncGenerator<Record<string, unknown>[]> {
  let next = from;
  do {
    const page = await fetchEntityPage(table, query, next);
    next = page.next;
    yield page.rows;
  } while (next);
}

/**
 * One page of a query. The SDK's `listEntities` passes every value of every entity through its
 * generic deserializer, which allocates several kilobytes per entity (a 20,000-row day: about
 * 200 MB of short-lived objects per listing). That garbage is what grew a large reconciliation's
 * heap. This sends the same query through the same client's pipeline (signing, retries,
 * deadlines, request counting) and asks for `odata=nometadata`: numbers, strings and booleans come
 * back as JSON values, which is all the index rows hold. A failed request throws a StorageError,
 * as every SDK call does.
 */
export async function fetchEntityPage(table: TableClient, query: EntityQuery, from?: EntityContinuation): Promise<EntityPage> {
  const params = new URLSearchParams({ $format: 'application/json;odata=nometadata', $filter: query.filter });
  if (query.select) params.set('$select', query.select.join(','));
  if (from) {
    params.set('NextPartitionKey', from.partitionKey);
    if (from.rowKey !== undefined) params.set('NextRowKey', from.rowKey);
  }
  try {
    const response = await sendTableRequest(table, {
      method: 'GET',
      path: `${encodeURIComponent(table.tableName)}()`,
      query: params.toString(),
      headers: { Accept: 'application/json;odata=nometadata', DataServiceVersion: '3.0', 'x-ms-version': tableServiceVersion },
    });
    if (response.status !== 200) {
      const code = response.headers.get('x-ms-error-code');
      throw new RestError(`The table query answered ${response.status}.`, {
        statusCode: response.status,
        ...(code === undefined ? {} : { code }),
        request: response.request,
        response,
      });
    }
    // The client's pipeline has already parsed a JSON answer; parse it here only if it has not.
    const parsed: unknown = (response as { parsedBody?: unknown }).parsedBody ?? JSON.parse(response.bodyAsText ?? '{}');
    const partitionKey = response.headers.get('x-ms-continuation-nextpartitionkey');
    return {
      rows: (parsed as { value?: Record<string, unknown>[] }).value ?? [],
      next: partitionKey === undefined ? undefined : { partitionKey, rowKey: response.headers.get('x-ms-continuation-nextrowkey') },
    };
  } catch (error) {
    throw toStorageError(error);
  }
}

import type { TableClient } from '@azure/data-tables';
import {
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineRequest,
  type HttpClient,
  type PipelineResponse,
} from '@azure/core-rest-pipeline';

/** The Table service version the SDK's own requests send. */
export const tableServiceVersion = '2019-02-02';

let httpClient: HttpClient | undefined;

export interface TableRequest {
  readonly method: 'GET' | 'POST';
  /** Below the account: `<table>()` for a query, `$batch` for a transaction. */
  readonly path: string;
  /** Query parameters, already encoded, without `?`. */
  readonly query?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * The account's table endpoint without a trailing slash or query, and its query (a SAS, with its
 * `?`, or empty).
 */
export function tableAccount(table: TableClient): { readonly url: string; readonly query: string } {
  const at = table.url.indexOf('?');
  return {
    url: (at < 0 ? table.url : table.url.slice(0, at)).replace(/\/+$/, ''),
    query: at < 0 ? '' : table.url.slice(at),
  };
}

/**
 * Sends a table request this service builds itself (day listings, transactions) through the
 * table client's own pipeline, which signs, retries and times each request and counts it; one HTTP
 * client for all of them keeps their connections pooled together. The answer is returned whatever
 * its status: the caller reads it.
 */
export async function sendTableRequest(table: TableClient, request: TableRequest): Promise<PipelineResponse> {
  httpClient ??= createDefaultHttpClient();
  const account = tableAccount(table);
  const query = [account.query.slice(1), request.query ?? ''].filter((part) => part !== '').join('&');
  return table.pipeline.sendRequest(
    httpClient,
    createPipelineRequest({
      url: `${account.url}/${request.path}${query === '' ? '' : `?${query}`}`,
      method: request.method,
      headers: createHttpHeaders({ ...request.headers }),
      ...(request.body === undefined ? {} : { body: request.body }),
      // The client was configured for this endpoint; an http URL is only ever the local emulator's.
      allowInsecureConnection: account.url.startsWith('http:'),
    }),
  );
}

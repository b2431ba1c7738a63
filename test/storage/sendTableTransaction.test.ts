import { randomUUID } from 'node:crypto';
import { type PipelinePolicy, type PipelineRequest, type PipelineResponse, type SendRequest } from '@azure/core-rest-pipeline';
import { TableClient, type TransactionAction } from '@azure/data-tables';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { StorageError } from '../../src/errors/StorageError.js';
import { sendTableTransaction } from '../../src/storage/sendTableTransaction.js';
import { toStorageError } from '../../src/storage/translateStorageErrors.js';

/** Notes every transaction request that goes through the client's pipeline: its headers and body. */
class BatchRecorder implements PipelinePolicy {
  readonly name = 'batch-recorder';
  readonly batches: { url: string; headers: Record<string, string>; body: string }[] = [];

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    if (request.url.includes('$batch')) {
      this.batches.push({
        url: request.url,
        headers: Object.fromEntries(request.headers),
        body: typeof request.body === 'string' ? request.body : '',
      });
    }
    return next(request);
  }
}

/** A request's text with its two boundaries' random ids replaced, so two requests can be compared. */
function withoutIds(text: string): string {
  return text.replace(/(batch|changeset)_[0-9a-f-]{36}/g, '$1_ID');
}

/** Headers the caller sets (the pipeline adds date, signature, request id and user agent to both alike). */
function ownHeaders(headers: Record<string, string>): Record<string, string> {
  const own = ['accept', 'x-ms-version', 'dataserviceversion', 'maxdataserviceversion', 'content-type', 'accept-charset', 'connection'];
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => own.includes(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), withoutIds(value)]),
  );
}

let table: TableClient;
const recorder = new BatchRecorder();

beforeAll(async () => {
  table = TableClient.fromConnectionString(inject('azuriteConnectionString'), `tx${randomUUID().replace(/-/g, '').slice(0, 16)}`, {
    allowInsecureConnection: true,
  });
  table.pipeline.addPolicy(recorder);
  await table.createTable();
});

describe('sendTableTransaction', () => {
  it("sends the SDK's request byte for byte, and storage applies it the same way", async () => {
    // Keys with a quote, a space, a bar and non-ASCII text; every kind of value the service writes.
    const stored = async (partitionKey: string) => {
      await table.createEntity({ partitionKey, rowKey: "it's b|2", note: 'old' });
      return (await table.getEntity(partitionKey, "it's b|2")).etag;
    };
    const actions = (partitionKey: string, etag: string): TransactionAction[] => [
      [
        'create',
        {
          note: 'caf\u00e9 "1" \\ ü',
          version: 3,
          ratio: 1.5,
          large: 3_000_000_000,
          flag: true,
          bytes: new Uint8Array([0, 1, 254, 255]),
          count: 12n,
          partitionKey,
          rowKey: "it's a|1 é",
        },
      ],
      ['update', { partitionKey, rowKey: "it's b|2", note: 'replaced' }, 'Replace', { etag }],
      ['upsert', { partitionKey, rowKey: 'c 3', note: 'upserted' }, 'Replace'],
    ];
    const sdkPartition = `sdk ${randomUUID()}|x`;
    const ownPartition = `own ${randomUUID()}|x`;
    const [sdkEtag, ownEtag] = await Promise.all([stored(sdkPartition), stored(ownPartition)]);
    recorder.batches.length = 0;
    await table.submitTransaction(actions(sdkPartition, sdkEtag));
    await sendTableTransaction(table, actions(ownPartition, ownEtag));

    const [sdk, own] = recorder.batches;
    if (!sdk || !own) throw new Error('a transaction was not recorded');
    expect(withoutIds(own.url)).toBe(withoutIds(sdk.url));
    expect(ownHeaders(own.headers)).toEqual(ownHeaders(sdk.headers));
    // The two differ only by their partition (as written and in a URL) and the ETag they are conditional on.
    const same = (body: string, partition: string, etag: string) =>
      withoutIds(body).replaceAll(partition, 'P').replaceAll(encodeURIComponent(partition), 'P').replaceAll(etag, 'E');
    expect(same(own.body, ownPartition, ownEtag)).toBe(same(sdk.body, sdkPartition, sdkEtag));
    expect(own.headers.authorization).toMatch(/^SharedKey/);

    const read = async (partitionKey: string) => {
      const rows: Record<string, unknown>[] = [];
      for await (const e of table.listEntities({ queryOptions: { filter: `PartitionKey eq '${partitionKey.replace(/'/g, "''")}'` } })) {
        const { etag: _etag, timestamp: _timestamp, partitionKey: _partitionKey, ...rest } = e;
        rows.push(rest);
      }
      return rows;
    };
    const rows = await read(ownPartition);
    expect(rows).toEqual(await read(sdkPartition));
    // In row-key order: 'c 3', "it's a|1 é", "it's b|2".
    expect(rows.map((r) => r.note)).toEqual(['upserted', 'caf\u00e9 "1" \\ ü', 'replaced']);
    expect(rows[1]).toMatchObject({ count: 12n, large: 3_000_000_000, flag: true });
    expect([...(rows[1]?.bytes as Uint8Array)]).toEqual([0, 1, 254, 255]);
  });

  it('throws what the SDK throws for a refused operation, and applies none of the transaction', async () => {
    const partitionKey = `refused ${randomUUID()}`;
    await table.createEntity({ partitionKey, rowKey: 'exists', note: 'first' });
    const { etag } = await table.getEntity(partitionKey, 'exists');
    await table.updateEntity({ partitionKey, rowKey: 'exists', note: 'changed since' }, 'Replace');

    const refusals = async (actions: TransactionAction[]) => {
      const caught: unknown[] = [];
      for (const send of [() => table.submitTransaction(actions), () => sendTableTransaction(table, actions)]) {
        try {
          await send();
          caught.push(undefined);
        } catch (error) {
          caught.push(error);
        }
      }
      // The service's table clients turn the SDK's RestError into a StorageError; this function does so itself.
      return caught.map((error) => {
        const translated = toStorageError(error);
        return translated instanceof StorageError
          ? { type: 'StorageError', kind: translated.kind, statusCode: translated.statusCode, code: translated.code }
          : error;
      });
    };
    const fresh = (rowKey: string): TransactionAction => ['create', { partitionKey, rowKey, note: 'new' }];
    // A create that meets an existing row; an update whose ETag is no longer current.
    const [sdkConflict, ownConflict] = await refusals([fresh('a'), ['create', { partitionKey, rowKey: 'exists', note: 'again' }]]);
    expect(ownConflict).toEqual(sdkConflict);
    expect(ownConflict).toMatchObject({ type: 'StorageError', statusCode: 409, code: 'EntityAlreadyExists' });
    const [sdkStale, ownStale] = await refusals([
      fresh('b'),
      ['update', { partitionKey, rowKey: 'exists', note: 'stale' }, 'Replace', { etag }],
    ]);
    expect(ownStale).toEqual(sdkStale);
    expect(ownStale).toMatchObject({ statusCode: 412, code: 'UpdateConditionNotSatisfied' });

    const rows: string[] = [];
    for await (const e of table.listEntities<{ note: string }>({ queryOptions: { filter: `PartitionKey eq '${partitionKey}'` } })) {
      rows.push(`${e.rowKey ?? ''}=${e.note}`);
    }
    expect(rows).toEqual(['exists=changed since']);
  });

  it('throws for a transaction storage refuses whole, as the SDK does', async () => {
    const missing = TableClient.fromConnectionString(
      inject('azuriteConnectionString'),
      `missing${randomUUID().replace(/-/g, '').slice(0, 12)}`,
      {
        allowInsecureConnection: true,
      },
    );
    const actions: TransactionAction[] = [['create', { partitionKey: 'p', rowKey: 'r' }]];
    const sdk = toStorageError(
      await missing.submitTransaction(actions).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    const own = await sendTableTransaction(missing, actions).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(own).toBeInstanceOf(StorageError);
    expect(sdk).toBeInstanceOf(StorageError);
    const { kind, statusCode, code } = own as StorageError;
    expect({ kind, statusCode, code }).toEqual({
      kind: (sdk as StorageError).kind,
      statusCode: (sdk as StorageError).statusCode,
      code: (sdk as StorageError).code,
    });
    expect(statusCode).toBeGreaterThanOrEqual(400);
  });

  it('refuses an operation it does not write before sending anything', async () => {
    recorder.batches.length = 0;
    const partitionKey = `merge ${randomUUID()}`;
    await expect(sendTableTransaction(table, [['upsert', { partitionKey, rowKey: 'm', note: 'x' }, 'Merge']])).rejects.toThrow(
      /not supported/,
    );
    await expect(sendTableTransaction(table, [['delete', { partitionKey, rowKey: 'm' }]])).rejects.toThrow(/not supported/);
    expect(recorder.batches).toEqual([]);
  });
});

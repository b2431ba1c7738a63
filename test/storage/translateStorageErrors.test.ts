import { RestError } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { StorageError } from '../../src/errors/StorageError.js';
import { createStorageClients } from '../../src/storage/StorageClients.js';
import { toStorageError } from '../../src/storage/translateStorageErrors.js';
import { azuriteConfig } from '../support/azuriteConfig.js';

function clients() {
  return createStorageClients(azuriteConfig());
}

describe('toStorageError', () => {
  it('calls unavailable what another try may get through, invalid what storage refuses for its content, refused the rest', () => {
    const kind = (error: unknown) => (toStorageError(error) as StorageError).kind;
    for (const status of [500, 502, 503, 504, 408, 429, 401, 403, 409, 412])
      expect(kind(new RestError('x', { statusCode: status })), String(status)).toBe('unavailable');
    for (const status of [400, 413]) expect(kind(new RestError('x', { statusCode: status })), String(status)).toBe('invalid');
    for (const status of [404, 405]) expect(kind(new RestError('x', { statusCode: status })), String(status)).toBe('refused');
    for (const code of ['REQUEST_SEND_ERROR', 'ECONNRESET', 'ETIMEDOUT', 'ECONNREFUSED'])
      expect(kind(new RestError('x', { code }))).toBe('unavailable');
    expect(kind(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe('unavailable');
    // Not from storage (a programming error, a process going down): passed on as it is.
    const notStorage = new TypeError('not storage at all');
    expect(toStorageError(notStorage)).toBe(notStorage);
    const translated = toStorageError(new RestError('x', { statusCode: 404 })) as StorageError;
    expect(translated.statusCode).toBe(404);
    expect(toStorageError(translated)).toBe(translated);
  });
});

describe('clients built by createStorageClients', () => {
  it('raise StorageError from calls, child clients and listings, keeping status and storage code', async () => {
    const storage = clients();
    expect(storage.tableService.constructor.name).toBe('TableServiceClient');
    const read = await storage.tables.partners.getEntity('no-such-partition', 'no-such-row').catch((error: unknown) => error);
    expect(read).toBeInstanceOf(StorageError);
    expect((read as StorageError).statusCode).toBe(404);

    const blob = storage.blobService.getContainerClient('no-such-container').getBlockBlobClient('x.json');
    const download = await blob.downloadToBuffer().catch((error: unknown) => error);
    expect(download).toBeInstanceOf(StorageError);
    expect((download as StorageError).code).toBe('ContainerNotFound');

    const listing = storage.blobService.getContainerClient('no-such-container').listBlobsFlat();
    const listed = await (async () => {
      for await (const item of listing) return item;
      return undefined;
    })().catch((error: unknown) => error);
    expect(listed).toBeInstanceOf(StorageError);
    expect((listed as StorageError).statusCode).toBe(404);
  });
});

import type { TokenCredential } from '@azure/core-auth';
import { describe, expect, it } from 'vitest';
import type { StorageConnection } from '../../src/config/Config.js';
import { storageEndpoint } from '../../src/cli/storageEndpoint.js';
import { createStorageClients } from '../../src/storage/StorageClients.js';

/** Never asked: building clients sends nothing. */
const credential: TokenCredential = { getToken: () => Promise.reject(new Error('not used')) };
const key = Buffer.from('not-a-real-key').toString('base64');

function endpointOf(storage: StorageConnection): ReturnType<typeof storageEndpoint> {
  return storageEndpoint(createStorageClients({ storage, reportsContainer: 'hq-reports' }, { credential }));
}

const identity = (tableServiceUri: string): StorageConnection => ({
  kind: 'identity',
  blobServiceUri: tableServiceUri.replace('.table.', '.blob.'),
  queueServiceUri: tableServiceUri.replace('.table.', '.queue.'),
  tableServiceUri,
  clientId: undefined,
});

describe('storageEndpoint', () => {
  it('names the local emulator for UseDevelopmentStorage=true and for an emulator connection string on any port or account', () => {
    expect(endpointOf({ kind: 'connectionString', connectionString: 'UseDevelopmentStorage=true' })).toEqual({
      url: 'http://127.0.0.1:10002/devstoreaccount1',
      emulator: true,
    });
    const explicit = (host: string, account: string): StorageConnection => ({
      kind: 'connectionString',
      connectionString: `DefaultEndpointsProtocol=http;AccountName=${account};AccountKey=${key};TableEndpoint=http://${host}/${account};BlobEndpoint=http://${host}/${account};QueueEndpoint=http://${host}/${account}`,
    });
    expect(endpointOf(explicit('127.0.0.1:41023', 'tenant2'))).toEqual({ url: 'http://127.0.0.1:41023/tenant2', emulator: true });
    expect(endpointOf(explicit('localhost:10002', 'devstoreaccount1')).emulator).toBe(true);
    expect(endpointOf(explicit('azurite:10002', 'devstoreaccount1')).emulator).toBe(true);
    expect(endpointOf(identity('http://[::1]:10002/devstoreaccount1')).emulator).toBe(true);
  });

  it('names an Azure account as it is, not the emulator', () => {
    expect(endpointOf(identity('https://stposprod.table.core.windows.net'))).toEqual({
      url: 'https://stposprod.table.core.windows.net',
      emulator: false,
    });
    const azure = endpointOf({
      kind: 'connectionString',
      connectionString: `DefaultEndpointsProtocol=https;AccountName=stpostest;AccountKey=${key};EndpointSuffix=core.windows.net`,
    });
    expect(azure).toEqual({ url: 'https://stpostest.table.core.windows.net', emulator: false });
  });

  it('never names the signature of a SAS connection string, which the client keeps in its query', () => {
    const sas = endpointOf({
      kind: 'connectionString',
      connectionString:
        'TableEndpoint=https://stpossas.table.core.windows.net/;BlobEndpoint=https://stpossas.blob.core.windows.net/;' +
        'QueueEndpoint=https://stpossas.queue.core.windows.net/;SharedAccessSignature=sv=2024-11-04&ss=bqt&sig=c2VjcmV0LXNpZw%3D',
    });
    expect(sas).toEqual({ url: 'https://stpossas.table.core.windows.net', emulator: false });
  });
});

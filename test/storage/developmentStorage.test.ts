import { describe, expect, it } from 'vitest';
import { expandConnectionString, isDevelopmentStorage } from '../../src/storage/developmentStorage.js';

describe('expandConnectionString', () => {
  it('spells out the emulator endpoints on the default ports for the development shorthand', () => {
    const expanded = expandConnectionString('UseDevelopmentStorage=true');
    expect(expanded).toContain('AccountName=devstoreaccount1;');
    expect(expanded).toContain('BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;');
    expect(expanded).toContain('QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;');
    expect(expanded).toContain('TableEndpoint=http://127.0.0.1:10002/devstoreaccount1');
  });

  it('leaves any other connection string unchanged', () => {
    expect(expandConnectionString('AccountName=x;AccountKey=y')).toBe('AccountName=x;AccountKey=y');
    expect(isDevelopmentStorage('UseDevelopmentStorage=false')).toBe(false);
    expect(isDevelopmentStorage(' usedevelopmentstorage=TRUE; ')).toBe(true);
  });
});

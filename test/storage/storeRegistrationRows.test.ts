/**
 * Store registration rows as older builds wrote them, on the emulator: a row without a status is
 * an ACTIVE registration, and retiring or reactivating it keeps what it held.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreRegistrationRepository } from '../../src/storage/StoreRegistrationRepository.js';
import { encodeKeyPart } from '../../src/storage/tableKey.js';
import { azuriteTable } from '../support/azuriteClients.js';

const tableName = `storeRegistrations${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const retiredAt = new Date('2026-03-02T00:00:00Z');

describe('store registration rows written before statuses existed', () => {
  it('read as ACTIVE, and keep their registration time through a retirement and a reactivation', async () => {
    const table = await azuriteTable(tableName);
    const registrations = new StoreRegistrationRepository(table);
    const partnerId = `p-${randomUUID().slice(0, 8)}`;
    // The first builds wrote the key alone; later ones added storeId and registeredAt, never a status.
    await table.createEntity({ partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart('OLD/1') });
    await table.createEntity({
      partitionKey: encodeKeyPart(partnerId),
      rowKey: encodeKeyPart('OLD-2'),
      storeId: 'OLD-2',
      registeredAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await registrations.listRegistrations(partnerId)).toEqual([
      { storeId: 'OLD-2', registeredAt: '2026-01-01T00:00:00.000Z', status: 'ACTIVE', retiredAt: null },
      { storeId: 'OLD/1', registeredAt: null, status: 'ACTIVE', retiredAt: null },
    ]);
    expect(await registrations.statusesAmong(partnerId, ['OLD/1', 'OLD-2'])).toEqual(
      new Map([
        ['OLD/1', 'ACTIVE'],
        ['OLD-2', 'ACTIVE'],
      ]),
    );

    expect(await registrations.setStatus(partnerId, 'OLD-2', 'RETIRED', retiredAt)).toEqual({
      storeId: 'OLD-2',
      registeredAt: '2026-01-01T00:00:00.000Z',
      status: 'RETIRED',
      retiredAt: retiredAt.toISOString(),
    });
    expect(await registrations.setStatus(partnerId, 'OLD/1', 'RETIRED', retiredAt)).toMatchObject({
      registeredAt: null,
      status: 'RETIRED',
    });
    await registrations.setStatus(partnerId, 'OLD-2', 'ACTIVE', retiredAt);
    // Only the registration's fields are stored: nothing of the read row's metadata, no retiredAt left behind.
    const row = await table.getEntity(encodeKeyPart(partnerId), encodeKeyPart('OLD-2'));
    const sdkFields = ['partitionKey', 'rowKey', 'etag', 'timestamp', 'odata.metadata'];
    expect(
      Object.keys(row)
        .filter((name) => !sdkFields.includes(name))
        .sort(),
    ).toEqual(['registeredAt', 'status', 'storeId']);
    expect((await registrations.listRegistrations(partnerId)).map((r) => [r.storeId, r.status])).toEqual([
      ['OLD-2', 'ACTIVE'],
      ['OLD/1', 'RETIRED'],
    ]);
  });
});

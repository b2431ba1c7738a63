import { describe, expect, it } from 'vitest';
import { checkStoreBatch } from '../../../src/domain/validation/checkStoreBatch.js';
import type { StoreBatch } from '../../../src/domain/model/payloads.js';
import { buildJpyStore, buildStoreBatch, buildUsdStore } from '../../fixtures/masterDataFixtures.js';

/** The service's clock: the fixture stores were last modified days before it. */
const now = new Date('2026-03-01T12:00:00Z');
const check = (batch: StoreBatch) => checkStoreBatch(batch, now);

describe('checkStoreBatch', () => {
  it('accepts the fixture stores', () => {
    expect(check(buildStoreBatch())).toEqual([]);
  });

  it('rejects a store_id repeated in the batch', () => {
    expect(check(buildStoreBatch([buildUsdStore('S1'), buildJpyStore('S2'), buildUsdStore('S1')]))).toEqual([
      { path: '/stores/2/store_id', message: 'duplicates the store_id of store 0 in this batch' },
    ]);
  });

  it.each([['XX'], ['UK'], ['EU'], ['ZZ'], ['XK']])('rejects the country code %s', (code) => {
    expect(check(buildStoreBatch([{ ...buildUsdStore(), country_code: code }]))).toEqual([
      { path: '/stores/0/country_code', message: 'must be an assigned ISO 3166-1 alpha-2 country code' },
    ]);
  });

  it.each([['GB'], ['TW'], ['HK'], ['AX'], ['SS']])('accepts the country code %s', (code) => {
    expect(check(buildStoreBatch([{ ...buildUsdStore(), country_code: code }]))).toEqual([]);
  });

  it('rejects a currency that is not ISO 4217', () => {
    expect(check(buildStoreBatch([{ ...buildUsdStore(), currency: 'BTC' }]))[0]?.path).toBe('/stores/0/currency');
  });

  it.each([['Asia/Tokyo'], ['America/Argentina/Buenos_Aires'], ['Europe/London'], ['UTC'], ['Etc/GMT+5']])(
    'accepts the time zone %s',
    (timeZone) => {
      expect(check(buildStoreBatch([{ ...buildUsdStore(), time_zone: timeZone }]))).toEqual([]);
    },
  );

  it.each([['Asia/Osaka'], ['Mars/Olympus'], ['+09:00'], ['JST+9'], ['']])('rejects the time zone %j', (timeZone) => {
    expect(check(buildStoreBatch([{ ...buildUsdStore(), time_zone: timeZone }]))).toEqual([
      { path: '/stores/0/time_zone', message: 'must be an IANA time zone name, in its own letter case, such as Asia/Tokyo' },
    ]);
  });

  it.each([['en-US'], ['zh-Hant-TW'], ['ja'], ['es-419']])('accepts the locale %s', (locale) => {
    expect(check(buildStoreBatch([{ ...buildUsdStore(), locale }]))).toEqual([]);
  });

  it.each([['en_US'], ['e'], ['en-'], ['english-language-tag-x'], ['en-US-u-'], ['123']])('rejects the locale %s', (locale) => {
    expect(check(buildStoreBatch([{ ...buildUsdStore(), locale }]))).toEqual([
      { path: '/stores/0/locale', message: 'must be a well-formed BCP 47 locale tag such as en-US' },
    ]);
  });

  it('refuses a last_modified_at more than a day after the clock, which no correction could replace', () => {
    const at = (stamp: string) => check(buildStoreBatch([{ ...buildUsdStore(), last_modified_at: stamp }]));
    expect(at('2026-03-02T12:00:00Z')).toEqual([]);
    expect(at('2026-03-02T21:00:00+09:00')).toEqual([]);
    for (const stamp of ['2026-03-02T12:00:01Z', '2027-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      expect(at(stamp)).toEqual([
        {
          path: '/stores/0/last_modified_at',
          message: "must not lie more than 24 hours after the service's clock: no later correction could replace it",
        },
      ]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { checkStoreBatch } from '../../../src/domain/validation/checkStoreBatch.js';
import { buildJpyStore, buildStoreBatch, buildUsdStore } from '../../fixtures/masterDataFixtures.js';

describe('checkStoreBatch', () => {
  it('accepts the fixture stores', () => {
    expect(checkStoreBatch(buildStoreBatch())).toEqual([]);
  });

  it('rejects a store_id repeated in the batch', () => {
    expect(checkStoreBatch(buildStoreBatch([buildUsdStore('S1'), buildJpyStore('S2'), buildUsdStore('S1')]))).toEqual([
      { path: '/stores/2/store_id', message: 'duplicates the store_id of store 0 in this batch' },
    ]);
  });

  it.each([['XX'], ['UK'], ['EU'], ['ZZ'], ['XK']])('rejects the country code %s', (code) => {
    expect(checkStoreBatch(buildStoreBatch([{ ...buildUsdStore(), country_code: code }]))).toEqual([
      { path: '/stores/0/country_code', message: 'must be an assigned ISO 3166-1 alpha-2 country code' },
    ]);
  });

  it.each([['GB'], ['TW'], ['HK'], ['AX'], ['SS']])('accepts the country code %s', (code) => {
    expect(checkStoreBatch(buildStoreBatch([{ ...buildUsdStore(), country_code: code }]))).toEqual([]);
  });

  it('rejects a currency that is not ISO 4217', () => {
    expect(checkStoreBatch(buildStoreBatch([{ ...buildUsdStore(), currency: 'BTC' }]))[0]?.path).toBe('/stores/0/currency');
  });

  it.each([['Asia/Tokyo'], ['America/Argentina/Buenos_Aires'], ['Europe/London'], ['UTC'], ['Etc/GMT+5']])(
    'accepts the time zone %s',
    (timeZone) => {
      expect(checkStoreBatch(buildStoreBatch([{ ...buildUsdStore(), time_zone: timeZone }]))).toEqual([]);
    },
  );

  it.each([['Asia/Osaka'], ['Mars/Olympus'], ['+09:00'], ['JST+9'], ['']])('rejects the time zone %j', (timeZone) => {
    expect(checkStoreBatch(buildStoreBatch([{ ...buildUsdStore(), time_zone: timeZone }]))).toEqual([
      { path: '/stores/0/time_zone', message: 'must be an IANA time zone name, in its own letter case, such as Asia/Tokyo' },
    ]);
  });

  it.each([['en-US'], ['zh-Hant-TW'], ['ja'], ['es-419']])('accepts the locale %s', (locale) => {
    expect(checkStoreBatch(buildStoreBatch([{ ...buildUsdStore(), locale }]))).toEqual([]);
  });

  it.each([['en_US'], ['e'], ['en-'], ['english-language-tag-x'], ['en-US-u-'], ['123']])('rejects the locale %s', (locale) => {
    expect(checkStoreBatch(buildStoreBatch([{ ...buildUsdStore(), locale }]))).toEqual([
      { path: '/stores/0/locale', message: 'must be a well-formed BCP 47 locale tag such as en-US' },
    ]);
  });
});

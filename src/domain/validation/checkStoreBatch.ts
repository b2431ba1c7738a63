import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { minorUnitDigits } from '../currency/minorUnitDigits.js';
import type { StoreBatch } from '../model/payloads.js';
import { findSensitiveData } from './findSensitiveData.js';
import { isCountryCode } from './isCountryCode.js';
import { isLocaleTag } from './isLocaleTag.js';
import { isStampTooFarAhead } from './isStampTooFarAhead.js';
import { isTimeZone } from './isTimeZone.js';

/**
 * The rules of a PUT /stores body that its schema cannot express (contract §2.3, §4.5): unique
 * store_id, real ISO 3166-1 country, ISO 4217 currency, IANA time zone and BCP 47 locale, and a
 * `last_modified_at` at most a day after `now`. workday_start (HH:mm, 00:00-23:59) is enforced by
 * the schema.
 */
export function checkStoreBatch(batch: StoreBatch, now: Date): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  const firstIndex = new Map<string, number>();
  batch.stores.forEach((store, index) => {
    const path = `/stores/${index}`;
    const first = firstIndex.get(store.store_id);
    if (first === undefined) firstIndex.set(store.store_id, index);
    else problems.push({ path: `${path}/store_id`, message: `duplicates the store_id of store ${first} in this batch` });
    if (!isCountryCode(store.country_code)) {
      problems.push({ path: `${path}/country_code`, message: 'must be an assigned ISO 3166-1 alpha-2 country code' });
    }
    if (minorUnitDigits(store.currency) === undefined) {
      problems.push({ path: `${path}/currency`, message: 'must be an active ISO 4217 currency code' });
    }
    if (!isTimeZone(store.time_zone)) {
      problems.push({ path: `${path}/time_zone`, message: 'must be an IANA time zone name, in its own letter case, such as Asia/Tokyo' });
    }
    if (!isLocaleTag(store.locale)) {
      problems.push({ path: `${path}/locale`, message: 'must be a well-formed BCP 47 locale tag such as en-US' });
    }
    if (isStampTooFarAhead(store.last_modified_at, now)) {
      problems.push({
        path: `${path}/last_modified_at`,
        message: "must not lie more than 24 hours after the service's clock: no later correction could replace it",
      });
    }
  });
  for (const problem of findSensitiveData(batch)) problems.push(problem);
  return problems;
}

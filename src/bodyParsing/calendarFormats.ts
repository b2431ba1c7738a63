import type { FormatDefinition } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats';

/**
 * The JSON Schema formats `date` and `date-time` with ajv-formats' answers (its full mode), for
 * less work on the values pushes carry by the thousand. A value in the canonical shape,
 * `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)`, whose fields are all in range is
 * accepted from its character codes, without the regular expression matches and splits the
 * library allocates per value (bench/ROUNDS.md, round 20). Every other value, valid or not, is
 * answered by ajv-formats' own function, so no answer differs from the library's.
 */
export const calendarFormats = {
  date: { type: 'string', validate: isDate },
  'date-time': { type: 'string', validate: isDateTime },
} satisfies Record<string, FormatDefinition<string>>;

const libraryDate = libraryValidate('date');
const libraryDateTime = libraryValidate('date-time');

function libraryValidate(name: 'date' | 'date-time'): (value: string) => boolean {
  const format = fullFormats[name];
  if (typeof format === 'object' && 'validate' in format && typeof format.validate === 'function') {
    return format.validate as (value: string) => boolean;
  }
  throw new Error(`ajv-formats no longer checks ${name} with a function.`);
}

const daysInMonth = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(value: string): boolean {
  return (value.length === 10 && isCanonicalDateInRange(value)) || libraryDate(value);
}

function isDateTime(value: string): boolean {
  return isCanonicalDateTimeInRange(value) || libraryDateTime(value);
}

/** `YYYY-MM-DD` at the start of `value`, naming a day that exists. */
function isCanonicalDateInRange(value: string): boolean {
  if (value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d) return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (daysInMonth[month] ?? 0));
}

/** The canonical date-time shape with every field in range (a leap second is left to the library). */
function isCanonicalDateTimeInRange(value: string): boolean {
  if (value.length < 20 || value.charCodeAt(10) !== 0x54 || !isCanonicalDateInRange(value)) return false;
  if (value.charCodeAt(13) !== 0x3a || value.charCodeAt(16) !== 0x3a) return false;
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let at = 19;
  if (value.charCodeAt(at) === 0x2e) {
    const start = ++at;
    while (at < value.length && isDigit(value.charCodeAt(at))) at++;
    if (at === start) return false;
  }
  const zone = value.charCodeAt(at);
  if (zone === 0x5a) return at + 1 === value.length;
  if (zone !== 0x2b && zone !== 0x2d) return false;
  if (at + 6 !== value.length || value.charCodeAt(at + 3) !== 0x3a) return false;
  const zoneHour = digits(value, at + 1, 2);
  const zoneMinute = digits(value, at + 4, 2);
  return zoneHour >= 0 && zoneHour <= 23 && zoneMinute >= 0 && zoneMinute <= 59;
}

/** The number written by `count` ASCII digits at `at`, or -1 when one of them is not a digit. */
function digits(value: string, at: number, count: number): number {
  let number = 0;
  for (let i = at; i < at + count; i++) {
    const code = value.charCodeAt(i);
    if (!isDigit(code)) return -1;
    number = number * 10 + code - 0x30;
  }
  return number;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

import { describe, expect, it } from 'vitest';
import { jsonByteLength } from '../../src/storage/jsonByteLength.js';

const byStringify = (value: unknown): number => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8'));

describe('jsonByteLength', () => {
  it.each([
    ['empty', ''],
    ['ASCII', 'T-0001-000042'],
    ['quotes and backslashes', 'a"b\\c'],
    ['short escapes', '\b\f\n\r\t'],
    ['other control characters and DEL', '\u0000\u0001\u001f\u007f'],
    ['two- and three-byte characters', 'é ß € 日本 \u2028\u2029 \ufeff'],
    ['a surrogate pair', '😀x😀'],
    ['lone surrogates', '\ud800 \udc00 x\ud83d'],
    ['a high surrogate at the end', 'abc\udbff'],
  ])('counts a string with %s as JSON.stringify writes it', (_, text) => {
    expect(jsonByteLength(text)).toBe(byStringify(text));
  });

  it.each([[0], [-0], [42], [-1.5], [1e21], [5e-7], [Number.MAX_SAFE_INTEGER], [NaN], [Infinity], [true], [false], [null], [undefined]])(
    'counts %s as JSON.stringify writes it',
    (value) => {
      expect(jsonByteLength(value)).toBe(byStringify(value));
    },
  );

  it('counts objects and arrays as JSON.stringify writes them', () => {
    const value = { a: ['x"', 1, null, { b: 'ü' }], d: new Date(0) };
    expect(jsonByteLength(value)).toBe(byStringify(value));
  });

  it('agrees with JSON.stringify on random strings of every kind of code unit', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const length = next() % 12;
      for (let i = 0; i < length; i++) {
        const range = next() % 4;
        const unit =
          range === 0 ? next() % 0x80 : range === 1 ? 0x80 + (next() % 0x780) : range === 2 ? 0xd800 + (next() % 0x800) : next() % 0x10000;
        text += String.fromCharCode(unit);
      }
      expect(jsonByteLength(text)).toBe(byStringify(text));
    }
  });
});

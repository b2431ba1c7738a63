import { describe, expect, it } from 'vitest';
import { decodeKeyPart, encodeKeyPart, isDigestKeyPart, maxKeyLength, tableKey } from '../../src/storage/tableKey.js';

describe('encodeKeyPart', () => {
  it('keeps letters, digits, - _ . and encodes every other UTF-8 byte reversibly', () => {
    expect(encodeKeyPart('NYC-0001_a.b')).toBe('NYC-0001_a.b');
    expect(encodeKeyPart('a/b\\c#d?e|f ~')).toBe('a~2Fb~5Cc~23d~3Fe~7Cf~20~7E');
    expect(encodeKeyPart('é')).toBe('~C3~A9');
    for (const value of ['NYC-0001', 'a/b\\c#d?e|f', '新宿東口店', '😀 x', 'é'.repeat(85), '~~looks like a digest']) {
      const encoded = encodeKeyPart(value);
      // Storage refuses these characters in keys, controls included.
      // eslint-disable-next-line no-control-regex -- the characters a key must not hold are what is tested
      expect(encoded).not.toMatch(/[/\\#?\u0000-\u001f\u007f-\u009f|]/);
      expect(decodeKeyPart(encoded)).toBe(value);
    }
  });

  it('stays within the key limit for any 128-character id, with a digest for what does not fit', () => {
    for (const letter of ['a', ' ', '/', 'é', '漢', '😀']) {
      const id = letter.repeat(128);
      const key = encodeKeyPart(id);
      expect(key.length, letter).toBeLessThanOrEqual(maxKeyLength);
      if (isDigestKeyPart(key)) expect(() => decodeKeyPart(key)).toThrow(/property/);
      else expect(decodeKeyPart(key)).toBe(id);
    }
    expect(isDigestKeyPart(encodeKeyPart('漢'.repeat(128)))).toBe(true);
    expect(isDigestKeyPart(encodeKeyPart('a'.repeat(128)))).toBe(false);
  });

  it('keeps keys that fit exactly as they were, and tells long values apart', () => {
    expect(tableKey('p-1', 'NYC-0001', '2026-03-01')).toBe('p-1|NYC-0001|2026-03-01');
    const long = (n: number) => `${'漢'.repeat(127)}${n}`;
    const keys = new Set(Array.from({ length: 50 }, (_, n) => encodeKeyPart(long(n))));
    expect(keys.size).toBe(50);
    expect(encodeKeyPart(long(1))).toBe(encodeKeyPart(long(1)));
  });
});

describe('tableKey', () => {
  it('fits three 128-character ids of any script into one key, digesting only the parts that must be', () => {
    for (const letter of ['a', '/', 'é', '漢', '😀']) {
      const key = tableKey(letter.repeat(128), '漢'.repeat(128), '2026-03-01');
      expect(key.length, letter).toBeLessThanOrEqual(maxKeyLength);
      const parts = key.split('|');
      expect(parts).toHaveLength(3);
      expect(parts[2]).toBe('2026-03-01');
    }
    const mixed = tableKey('p-1', '漢'.repeat(128), '2026-03-01').split('|');
    expect(mixed[0]).toBe('p-1');
    expect(isDigestKeyPart(mixed[1]!)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { maxJsonDepth } from '../../src/bodyParsing/maxJsonDepth.js';
import { parseJsonBody } from '../../src/bodyParsing/parseJsonBody.js';
import { buildTradeRecordBatch, toBytes } from '../fixtures/tradeRecordFixtures.js';
import { stringMatching } from '../support/matchers.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const parse = (text: string) => parseJsonBody(encode(text));

function problemsOf(text: string | Uint8Array) {
  const result = typeof text === 'string' ? parse(text) : parseJsonBody(text);
  if (result.ok) throw new Error('expected the body to be refused');
  return result.problems;
}

describe('parseJsonBody', () => {
  it('parses a realistic body', () => {
    const body = buildTradeRecordBatch({ currency: 'JPY' });
    const result = parseJsonBody(toBytes(body));
    expect(result).toEqual({ ok: true, value: body });
  });

  it('accepts whitespace, escapes, surrogate pairs and every literal', () => {
    const text =
      ' \r\n\t{ "a" : [ 1, -0.5e-3, 2E+2, true, false, null, "x\\"y\\\\z\\/\\b\\f\\n\\r\\t", "\\u00e9\\ud83d\\ude00😀" ], "b": {} , "c": [] }\n';
    const result = parse(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toEqual(JSON.parse(text));
  });

  it('refuses bytes that are not UTF-8', () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
    expect(problemsOf(bytes)[0]?.message).toMatch(/not valid UTF-8/);
  });

  it('refuses UTF-8-encoded surrogates (CESU-8)', () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]);
    expect(problemsOf(bytes)[0]?.message).toMatch(/not valid UTF-8/);
  });

  it('refuses a leading byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encode('{}')]);
    expect(problemsOf(bytes)[0]?.message).toMatch(/byte order mark/);
  });

  it('refuses an empty body and one holding only whitespace', () => {
    expect(problemsOf('')[0]?.message).toMatch(/empty/);
    expect(problemsOf('  \n ')[0]?.message).toMatch(/empty/);
  });

  it.each([['[]'], ['"text"'], ['42'], ['null'], ['true']])('refuses the top-level value %s', (text) => {
    expect(problemsOf(text)[0]?.message).toMatch(/must be a JSON object/);
  });

  it.each([
    ['{"a":1,}'],
    ['{"a" 1}'],
    ['{a:1}'],
    ["{'a':1}"],
    ['{"a":[1,]}'],
    ['{"a":[1 2]}'],
    ['{"a":01}'],
    ['{"a":1.}'],
    ['{"a":.5}'],
    ['{"a":+1}'],
    ['{"a":1e}'],
    ['{"a":-}'],
    ['{"a":NaN}'],
    ['{"a":Infinity}'],
    ['{"a":tru}'],
    ['{"a":"\\x41"}'],
    ['{"a":"\\u12G4"}'],
    ['{"a":"unterminated}'],
    ['{"a":1'],
    ['{"a":1}}'],
    ['{"a":1} {"b":2}'],
    ['{"a":1}x'],
    ['{"a":[}'],
    ['{"a":{]}'],
    ['{"a":"tab\there"}'],
    ['{"a":"line\nbreak"}'],
  ])('refuses malformed JSON %s without echoing it', (text) => {
    const problems = problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).not.toContain(text);
    expect(() => {
      JSON.parse(text);
    }).toThrow();
  });

  it('gives the line and column of a syntax error and the path to it', () => {
    const problems = problemsOf('{\n  "trade_records": [\n    {"a": 1},\n    {"b": tru}\n  ]\n}');
    expect(problems[0]).toEqual({ path: '/trade_records/1/b', message: 'Expected a JSON value. (line 4, column 11)' });
  });

  it(`accepts nesting of exactly ${maxJsonDepth} levels and refuses one more`, () => {
    const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    expect(parse(nested(maxJsonDepth)).ok).toBe(true);
    expect(problemsOf(nested(maxJsonDepth + 1))[0]?.message).toMatch(/nested deeper than 32/);
  });

  it('refuses a 100,000-deep document without a stack overflow', () => {
    const text = '{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    expect(problemsOf(text)[0]?.message).toMatch(/nested deeper/);
  });

  it('does not count brackets inside strings as nesting', () => {
    const text = JSON.stringify({ a: '[[[[{{{{'.repeat(100), b: '\\"[{' });
    expect(parse(text).ok).toBe(true);
  });

  it('refuses a duplicate key and points at it', () => {
    expect(problemsOf('{"batch_id":"x","store_id":"a","store_id":"b"}')[0]).toMatchObject({
      path: '/store_id',
      message: stringMatching(/^Duplicate key/),
    });
    expect(problemsOf('{"trade_records":[{"items":[{"line_no":1,"line_no":2}]}]}')[0]?.path).toBe('/trade_records/0/items/0/line_no');
  });

  it('finds a duplicate key written with escapes', () => {
    expect(problemsOf('{"ab":1,"a\\u0062":2}')[0]?.message).toMatch(/Duplicate key/);
  });

  it('finds a duplicate among many keys (Set mode)', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    expect(parse(`{${keys.join(',')}}`).ok).toBe(true);
    expect(problemsOf(`{${keys.join(',')},"k7":0}`)[0]?.path).toBe('/k7');
  });

  it.each([
    ['whose values are objects', '{"a":{"x":1,"y":{"z":[{}]}},"a":{"x":1}}', '/a'],
    ['whose second value holds more keys than the first lost', '{"a":1,"b":{"c":1},"b":{"c":1,"d":2}}', '/b'],
    ['with integer-like names, which objects order first', '{"b":{},"1":{"x":1,"x":2}}', '/1/x'],
    ['in an object inside arrays', '{"a":[[{"k":1}],[{"k":1,"k":1}]]}', '/a/1/0/k'],
    ['among names of several UTF-8 bytes', '{"é":{"漢":1},"k":"😀","漢":3,"k":4}', '/k'],
  ])('refuses a duplicate key %s', (_, text, path) => {
    expect(problemsOf(text)[0]).toMatchObject({ path, message: stringMatching(/^Duplicate key/) });
  });

  it.each([
    ['colons, quotes and braces inside strings', '{"a:b":"c:d","e":"\\"{:[","f":["]:}"]}'],
    ['an escaped backslash before a closing quote', '{"a":"x\\\\","b":{"c":1}}'],
    ['a \\u written after an escaped backslash, which is text and not an escape', '{"a":"\\\\ud800"}'],
    ['integer-like keys', '{"b":{"y":1},"10":{"x":1},"2":[{"2":2}]}'],
    ['characters of two to four UTF-8 bytes beside colons, quotes and brackets', '{"漢:":"ü\\"é[","€":["😀:{"],"é":{"ß":"}"}}'],
  ])('accepts %s', (_, text) => {
    expect(parse(text)).toEqual({ ok: true, value: JSON.parse(text) as unknown });
  });

  it('refuses a number overflowing to Infinity inside arrays', () => {
    expect(problemsOf('{"a":[1,[2,-1e400]]}')[0]).toMatchObject({ path: '/a/1/1', message: stringMatching(/too large/) });
  });

  it('allows the same key in sibling and nested objects', () => {
    expect(parse('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"a":1}}').ok).toBe(true);
  });

  it('does not show an unsafe duplicate key name in the path', () => {
    const problem = problemsOf('{"x":{"<script>":1,"<script>":2}}')[0];
    expect(problem?.path).toBe('/x');
    expect(JSON.stringify(problem)).not.toContain('script');
  });

  it.each([
    ['a lone high surrogate', '{"a":"\\ud800"}'],
    ['a lone high surrogate followed by text', '{"a":"\\ud83dabc"}'],
    ['a high surrogate followed by a non-surrogate escape', '{"a":"\\ud83d\\u0041"}'],
    ['a lone low surrogate', '{"a":"\\udc00"}'],
    ['two high surrogates', '{"a":"\\ud83d\\ud83d"}'],
    ['a lone surrogate in a key', '{"\\udfff":1}'],
  ])('refuses %s', (_, text) => {
    expect(problemsOf(text)[0]?.message).toMatch(/unpaired surrogate/);
  });

  it.each([['1e400'], ['-1e400'], ['1' + '0'.repeat(400)], ['123.4e999']])('refuses a number overflowing to Infinity (#%#)', (n) => {
    expect(problemsOf(`{"a":${n}}`)[0]?.message).toMatch(/too large/);
  });

  it('accepts numbers with a fraction or an exponent that a double keeps exactly', () => {
    const text = `{"a":1.7976931348623157e308,"b":[3.0,-0.0,25e-1,0.1,1E2,5e-324,0.${'0'.repeat(1 << 20)}5e1048577],"c":{"d":9007199254740993}}`;
    expect(parse(text)).toEqual({ ok: true, value: JSON.parse(text) as unknown });
  });

  it('accepts every double written in its shortest form, subnormal and 17-digit ones included', () => {
    // A fixed spread of doubles: every 3rd power of ten of the range, scaled by 17-digit mantissas.
    const doubles = [5e-324, 2.2250738585072014e-308, 0.30000000000000004, 1.7976931348623157e308];
    for (let exponent = -324; exponent <= 308; exponent += 3) {
      for (const mantissa of [1, 1.2345678901234567, 9.999999999999998, 3.0000000000000004]) doubles.push(mantissa * 10 ** exponent);
    }
    for (const x of doubles.filter((d) => d > 0 && Number.isFinite(d))) {
      for (const written of [String(x), x.toExponential(), `-${x.toExponential().toUpperCase()}`]) {
        expect(parse(`{"a":${written}}`), written).toEqual({ ok: true, value: { a: Number(written) } });
      }
    }
  });

  it.each([
    ['a fraction rounded to an integer', '{"v":2.9999999999999999}', '/v'],
    ['an exponent rounded to an integer', '{"a":[1,29999999999999999e-16]}', '/a/1'],
    ['a number that underflows to zero', '{"a":{"count":1e-400}}', '/a/count'],
    ['a fraction past what a double keeps', '{"a":0.30000000000000001}', '/a'],
    ['a 17-digit form that is not the shortest', '{"a":[0.10000000000000001]}', '/a/0'],
    ['a subnormal written longer than its shortest form', '{"a":4.9406564584124654e-324}', '/a'],
    ['a megabyte-long fraction', `{"a":1.${'0'.repeat(1 << 20)}1}`, '/a'],
  ])('refuses %s, naming where it is', (_, text, path) => {
    expect(problemsOf(text)).toEqual([{ path, message: stringMatching(/would change when held as a double/) }]);
  });

  it('keeps __proto__ and constructor as plain own properties', () => {
    const result = parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never quotes the submitted values in messages', () => {
    const secret = 'SECRET VALUE 1234';
    const texts = [`{"${secret}":1,"${secret}":2}`, `{"a":"${secret}",}`, `{"a":"${secret}\\ud800"}`, `{"a":${secret}}`];
    for (const text of texts) expect(JSON.stringify(problemsOf(text))).not.toContain(secret);
  });
});

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceMaxBodyBytes } from '../../packages/partner-kit/src/bodyLimit.js';
import { runPosValidate } from '../../packages/partner-kit/src/posValidate.js';
import { partnerExamples } from '../../src/openapi/partnerExamples.js';
import { longNamedMappings } from './support/largeMappings.js';

const folder = mkdtempSync(path.join(tmpdir(), 'pos-validate-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});
function file(name: string, content: unknown): string {
  const full = path.join(folder, name);
  writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content));
  return full;
}
function run(...argv: string[]): { code: number; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const code = runPosValidate(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

const example = partnerExamples.pushTradeRecords.request;

describe('pos-validate', () => {
  it('exits 0 and says OK for a body the service accepts', () => {
    const result = run('trade-records', file('ok.json', example));
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^OK: .*record_count 1, 0 warning/);
  });

  it('prints AMOUNT_MISMATCH warnings with the record path and still exits 0', () => {
    const body = structuredClone(example) as { trade_records: { total_amount: string }[] };
    body.trade_records[0]!.total_amount = '11.80';
    const result = run('trade-records', file('mismatch.json', body));
    expect(result.code).toBe(0);
    expect(result.out[1]).toMatch(/^warning AMOUNT_MISMATCH trade_records\[0\]: /);
  });

  it('exits 1 with the status, code and every path of a refused body', () => {
    const body = structuredClone(example) as { batch_id: string; trade_records: { items: { quantity: string }[] }[] };
    body.batch_id = 'nope';
    body.trade_records[0]!.items[0]!.quantity = 'one';
    const result = run('trade-records', file('bad.json', body));
    expect(result.code).toBe(1);
    expect(result.out[0]).toBe('400 INVALID_PAYLOAD: The body does not match the schema.');
    expect(result.out.slice(1).map((line) => line.trim().split(':')[0])).toEqual(['/batch_id', '/trade_records/0/items/0/quantity']);
  });

  it('exits 1 with 413 PAYLOAD_TOO_LARGE, the size and the limit, for a file over the body limit the schema alone would pass', () => {
    // As many entries as a mapping takes, 10,000, with names of 500 characters: about 5.6 MB.
    const body = { batch_id: randomUUID(), mappings: longNamedMappings(10_000, 500) };
    const size = Buffer.byteLength(JSON.stringify(body));
    expect(size).toBeGreaterThan(serviceMaxBodyBytes);
    const large = file('large-mapping.json', body);
    const result = run('mappings', large);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      `413 PAYLOAD_TOO_LARGE: The request body is ${size} bytes, more than the limit of ${serviceMaxBodyBytes} bytes.`,
    ]);

    const json = run('mappings', large, '--json');
    expect(json.code).toBe(1);
    expect((JSON.parse(json.out.join('\n')) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('checks the currency against the store when told it, and prints the service body with --json', () => {
    const result = run('trade-records', file('jpy.json', example), '--store-currency', 'JPY', '--json');
    expect(result.code).toBe(1);
    const body = JSON.parse(result.out.join('\n')) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('INVALID_PAYLOAD');
    expect(body.error.details[0]?.path).toBe('/trade_records/0/currency');
  });

  it('exits 2 on wrong usage or an unreadable file', () => {
    expect(run().code).toBe(2);
    const unknown = run('trade_records', file('x.json', {}));
    expect(unknown.code).toBe(2);
    expect(unknown.err[0]).toBe(
      'Unknown endpoint "trade_records": expected one of trade-records, daily-close, stores, products, mappings.',
    );
    expect(run('stores', path.join(folder, 'missing.json')).code).toBe(2);
    expect(run('stores', file('y.json', {}), '--nope').code).toBe(2);
  });

  it('exits 2 on a store currency that is not a currency code, rather than blame the file', () => {
    for (const code of ['usd', 'XYZ', '']) {
      const result = run('trade-records', file('ok.json', example), '--store-currency', code);
      expect(result.code).toBe(2);
      expect(result.out).toEqual([]);
      expect(result.err[0]).toBe(`--store-currency "${code}" is not an active ISO 4217 currency code (three capital letters, e.g. USD).`);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { RouteTable, decodePathSegments } from '../../src/localhost/RouteTable.js';

function table(...templates: string[]): RouteTable<string> {
  const routes = new RouteTable<string>();
  for (const template of templates) routes.add(`pos/v1/${template}`, template);
  return routes;
}

function first(routes: RouteTable<string>, path: string): { value: string; params: Record<string, string> } | undefined {
  const segments = decodePathSegments(path);
  return segments ? routes.match(segments)[0] : undefined;
}

describe('RouteTable', () => {
  it('matches literal segments case-insensitively and decodes parameters', () => {
    const routes = table('daily-close/{store_id}/{business_date}');
    expect(first(routes, '/POS/v1/Daily-Close/S%201/2024-01-31')).toEqual({
      value: 'daily-close/{store_id}/{business_date}',
      params: { store_id: 'S 1', business_date: '2024-01-31' },
    });
    expect(first(routes, '/pos/v1/daily-close/S1')).toBeUndefined();
    expect(first(routes, '/pos/v1/daily-close/S1/2024-01-31/x')).toBeUndefined();
  });

  it('keeps an encoded slash inside its segment, undecoded as the host leaves it, and tolerates a trailing slash', () => {
    expect(first(table('stores/{id}'), '/pos/v1/stores/a%2Fb/')?.params).toEqual({ id: 'a%2Fb' });
    expect(first(table('stores/{id}'), '/pos/v1/stores/%E6%BC%A2%2F%20x%252F')?.params).toEqual({ id: '漢%2F x%2F' });
  });

  it('rejects invalid percent-encoding', () => {
    expect(decodePathSegments('/pos/v1/stores/%E0%A4%A')).toBeUndefined();
  });

  it('ranks literals over constrained over plain parameters', () => {
    const routes = table('items/{id}', 'items/{id:int}', 'items/latest');
    expect(first(routes, '/pos/v1/items/latest')?.value).toBe('items/latest');
    expect(first(routes, '/pos/v1/items/42')?.value).toBe('items/{id:int}');
    expect(first(routes, '/pos/v1/items/abc')?.value).toBe('items/{id}');
  });

  it('supports optional and catch-all parameters', () => {
    const routes = table('reports/{day?}', 'files/{*rest}');
    expect(first(routes, '/pos/v1/reports')?.params).toEqual({});
    expect(first(routes, '/pos/v1/reports/2024-01-01')?.params).toEqual({ day: '2024-01-01' });
    expect(first(routes, '/pos/v1/files/a/b/c')?.params).toEqual({ rest: 'a/b/c' });
  });

  it('supports parameters inside a segment', () => {
    expect(first(table('export.{format}'), '/pos/v1/export.csv')?.params).toEqual({ format: 'csv' });
  });
});

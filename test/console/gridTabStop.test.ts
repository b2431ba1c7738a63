import { describe, expect, it } from 'vitest';
import type { GridRow } from '../../console/src/api/hqTypes.js';
import { gridTabStop } from '../../console/src/views/gridTabStop.js';

const dates = ['2026-03-02', '2026-03-03', '2026-03-04'];

/** A grid row with a day (a link) on each of `days`. */
function row(storeId: string, days: readonly string[]): GridRow {
  return {
    partner_id: 'acme',
    store_id: storeId,
    store_name: null,
    currency: null,
    time_zone: null,
    active: true,
    days: days.map((business_date) => ({
      business_date,
      status: 'NOT_RECEIVED',
      overdue: true,
      close_due_at: `${business_date}T06:00:00.000Z`,
      close_received_at: null,
      checked_at: null,
      differences: [],
    })),
  };
}

describe('the grid’s one tab stop', () => {
  it('is the first day with a link, row by row in the order shown', () => {
    const rows = [row('B', ['2026-03-04']), row('A', dates)];
    expect(gridTabStop(rows, dates, undefined)).toEqual({ partnerId: 'acme', storeId: 'B', date: '2026-03-04' });
    expect(gridTabStop([row('R', []), ...rows.slice(1)], dates, undefined)).toEqual({
      partnerId: 'acme',
      storeId: 'A',
      date: '2026-03-02',
    });
  });

  it('is the day last focused while it is shown, wherever its row is sorted to', () => {
    const rows = [row('A', dates), row('B', dates)];
    const remembered = { partnerId: 'acme', storeId: 'B', date: '2026-03-03' };
    expect(gridTabStop(rows, dates, remembered)).toBe(remembered);
    expect(gridTabStop([...rows].reverse(), dates, remembered)).toBe(remembered);
  });

  it('falls back to the first link when the day last focused is gone', () => {
    const rows = [row('A', dates), row('B', ['2026-03-02'])];
    const first = { partnerId: 'acme', storeId: 'A', date: '2026-03-02' };
    expect(gridTabStop(rows, dates, { partnerId: 'acme', storeId: 'B', date: '2026-03-03' })).toEqual(first);
    expect(gridTabStop(rows, dates, { partnerId: 'acme', storeId: 'C', date: '2026-03-02' })).toEqual(first);
    expect(gridTabStop(rows, dates.slice(1), { partnerId: 'acme', storeId: 'B', date: '2026-03-02' })).toEqual({
      ...first,
      date: '2026-03-03',
    });
  });

  it('is none when no day has a link', () => {
    expect(gridTabStop([row('A', [])], dates, undefined)).toBeUndefined();
  });
});

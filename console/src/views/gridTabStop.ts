import type { GridRow } from '../api/hqTypes.js';

/** A day cell of the grid, by what it shows rather than where: sorting moves it. */
export interface GridCellRef {
  readonly partnerId: string;
  readonly storeId: string;
  readonly date: string;
}

/**
 * The one day link of the grid that Tab stops at (the arrow keys move on from it): the cell last
 * focused while it is still shown with a link, else the first cell with a link in the rows' order,
 * then the dates'. A cell without a day has no link; undefined when no cell has one.
 */
export function gridTabStop(
  rows: readonly GridRow[],
  dates: readonly string[],
  remembered: GridCellRef | undefined,
): GridCellRef | undefined {
  const shown = (row: GridRow, date: string) => dates.includes(date) && row.days.some((day) => day.business_date === date);
  if (remembered) {
    const row = rows.find((r) => r.partner_id === remembered.partnerId && r.store_id === remembered.storeId);
    if (row && shown(row, remembered.date)) return remembered;
  }
  for (const row of rows) {
    const date = dates.find((d) => shown(row, d));
    if (date !== undefined) return { partnerId: row.partner_id, storeId: row.store_id, date };
  }
  return undefined;
}

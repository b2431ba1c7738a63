import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { compareValues, type SortValue } from '../table/compareValues.js';
import { downloadText } from '../table/downloadText.js';
import { toCsv } from '../table/toCsv.js';

export interface Column<T> {
  readonly id: string;
  readonly label: string;
  /** What the column sorts by (and exports, unless `csv` says otherwise). */
  readonly value: (row: T) => SortValue;
  readonly render?: (row: T) => ComponentChildren;
  readonly csv?: (row: T) => string;
  readonly numeric?: boolean;
}

interface DataTableProps<T> {
  readonly caption: string;
  readonly columns: readonly Column<T>[];
  readonly rows: readonly T[];
  readonly rowKey: (row: T) => string;
  /** File name of the CSV export, without `.csv`. */
  readonly fileName: string;
  readonly initialSort?: { readonly id: string; readonly descending?: boolean };
  readonly empty?: string;
  readonly testId?: string;
}

/**
 * A table every view uses: each column head is a button that sorts (again: the other way), and the
 * rows as sorted can be saved as CSV with raw values (amounts as decimal strings, ISO dates).
 */
export function DataTable<T>({ caption, columns, rows, rowKey, fileName, initialSort, empty, testId }: DataTableProps<T>) {
  const [sort, setSort] = useState<{ id: string; descending: boolean } | undefined>(
    initialSort ? { id: initialSort.id, descending: initialSort.descending ?? false } : undefined,
  );
  const sorted = useMemo(() => {
    const column = columns.find((c) => c.id === sort?.id);
    if (!column || !sort) return rows;
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
    const sign = sort.descending ? -1 : 1;
    return [...rows].sort((a, b) => sign * compareValues(column.value(a), column.value(b), collator));
  }, [rows, columns, sort]);

  const exportCsv = () => {
    const header = columns.map((c) => c.id);
    const body = sorted.map((row) => columns.map((c) => (c.csv ? c.csv(row) : csvText(c.value(row)))));
    downloadText(`${fileName}.csv`, toCsv(header, body));
  };

  return (
    <div class="table-block" data-testid={testId}>
      <div class="table-tools">
        <span class="table-caption" aria-hidden="true">
          {caption} <span class="muted">({rows.length})</span>
        </span>
        <button type="button" class="secondary" onClick={exportCsv} disabled={rows.length === 0}>
          Export CSV<span class="visually-hidden"> of {caption}</span>
        </button>
      </div>
      <div class="table-scroll">
        <table>
          <caption class="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => {
                const active = sort?.id === column.id;
                const ariaSort = active ? (sort.descending ? 'descending' : 'ascending') : 'none';
                return (
                  <th key={column.id} scope="col" aria-sort={ariaSort} class={column.numeric ? 'num' : undefined}>
                    <button
                      type="button"
                      class="sort"
                      onClick={() => {
                        setSort({ id: column.id, descending: active ? !sort.descending : false });
                      }}
                    >
                      {column.label}
                      <span class="sort-mark" aria-hidden="true">
                        {active ? (sort.descending ? '▼' : '▲') : '↕'}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {sorted.length === 0 ? (
              <tr>
                <td colSpan={columns.length} class="muted">
                  {empty ?? 'Nothing to show.'}
                </td>
              </tr>
            ) : (
              sorted.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.id} class={column.numeric ? 'num' : undefined}>
                      {column.render ? column.render(row) : displayText(column.value(row))}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function csvText(value: SortValue): string {
  if (value === undefined) return '';
  if (typeof value === 'object') return value.decimal;
  return String(value);
}

function displayText(value: SortValue): string {
  if (value === undefined) return '—';
  if (typeof value === 'object') return value.decimal;
  return typeof value === 'number' ? new Intl.NumberFormat().format(value) : value;
}

import { useMemo, useState } from 'preact/hooks';
import { dayStatuses, type DayStatus, type GridDay, type GridPage, type GridRow, type StatusCounts } from '../api/hqTypes.js';
import { statusLabels, statusMarks } from '../components/StatusBadge.js';
import { LoadedContent } from '../components/LoadedContent.js';
import { datesBetween, formatBusinessDate, formatGridDay, formatInstant, rangeStart } from '../format/formatDate.js';
import { formatCount } from '../format/formatAmount.js';
import { hrefOf } from '../route.js';
import { useSession } from '../session/Session.js';
import { downloadText } from '../table/downloadText.js';
import { toCsv } from '../table/toCsv.js';
import { useLoad } from '../useLoad.js';
import { DateRangeFields } from './DateRangeFields.js';
import { FilterForm } from './FilterForm.js';
import { gridTabStop, type GridCellRef } from './gridTabStop.js';
import { PartnerPicker, todayIso } from './PartnerPicker.js';
import { useQueryField } from './useQueryField.js';

type GridSort = 'store' | 'name' | 'problems';

/**
 * The most overdue closes listed open above the grid. Each is a link, and every one stands between
 * the filters and the grid for a keyboard user: a longer list starts closed, its summary giving the
 * count, and opens on demand.
 */
const overdueListOpenUpTo = 20;

/** Stores × business dates for a range, coloured by reconciliation status, overdue closes listed first. */
export function GridView({ query }: { readonly query: URLSearchParams }) {
  const { client } = useSession();
  const to = query.get('to') ?? todayIso();
  const from = query.get('from') ?? rangeStart(to, 14);
  const partner = query.get('partner') ?? '';
  const status = query.get('status') ?? '';
  const overdueOnly = query.get('overdue') === 'true';
  const key = JSON.stringify([from, to, partner, status, overdueOnly]);
  const [statusValue, setStatus] = useQueryField(status);
  const [overdueValue, setOverdue] = useQueryField(overdueOnly);
  const grid = useLoad(async () => {
    const pages = await client.getPages<GridPage>('store-days', {
      from,
      to,
      partner_id: partner,
      status,
      overdue: overdueOnly ? 'true' : undefined,
    });
    return { rows: pages.flatMap((page) => page.items), counts: addCounts(pages.map((page) => page.counts)) };
  }, key);

  return (
    <section aria-labelledby="grid-title">
      <h1 id="grid-title" tabIndex={-1}>
        Reconciliation
      </h1>
      <FilterForm page="grid">
        <DateRangeFields from={from} to={to} />
        <PartnerPicker value={partner} />
        <label>
          Status
          <select
            name="status"
            value={statusValue}
            onChange={(event) => {
              setStatus(event.currentTarget.value);
            }}
          >
            <option value="">Any</option>
            {dayStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabels[s]}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            name="overdue"
            value="true"
            checked={overdueValue}
            onChange={(event) => {
              setOverdue(event.currentTarget.checked);
            }}
          />{' '}
          Overdue only
        </label>
      </FilterForm>
      <LoadedContent loaded={grid} what="the reconciliation grid">
        {(data) => <GridBody rows={data.rows} counts={data.counts} from={from} to={to} />}
      </LoadedContent>
    </section>
  );
}

function GridBody({ rows, counts, from, to }: { rows: readonly GridRow[]; counts: StatusCounts; from: string; to: string }) {
  const dates = useMemo(() => datesBetween(from, to), [from, to]);
  const [sort, setSort] = useState<{ by: GridSort; descending: boolean }>({ by: 'store', descending: false });
  const sorted = useMemo(() => sortRows(rows, sort.by, sort.descending), [rows, sort]);
  const [focused, setFocused] = useState<GridCellRef | undefined>();
  const tabStop = useMemo(() => gridTabStop(sorted, dates, focused), [sorted, dates, focused]);
  const overdue = useMemo(() => rows.flatMap((row) => row.days.filter((day) => day.overdue).map((day) => ({ row, day }))), [rows]);

  const sortButton = (by: GridSort, label: string) => {
    const active = sort.by === by;
    return (
      <th scope="col" aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
        <button
          type="button"
          class="sort"
          onClick={() => {
            setSort({ by, descending: active ? !sort.descending : by === 'problems' });
          }}
        >
          {label}
          <span class="sort-mark" aria-hidden="true">
            {active ? (sort.descending ? '▼' : '▲') : '↕'}
          </span>
        </button>
      </th>
    );
  };

  const exportCsv = () => {
    const header = ['partner_id', 'store_id', 'store_name', 'currency', ...dates];
    const body = sorted.map((row) => {
      const byDate = new Map(row.days.map((day) => [day.business_date, day]));
      return [
        row.partner_id,
        row.store_id,
        row.store_name ?? '',
        row.currency ?? '',
        ...dates.map((date) => {
          const day = byDate.get(date);
          return day ? `${day.status}${day.overdue ? ' OVERDUE' : ''}` : '';
        }),
      ];
    });
    downloadText(`reconciliation-${from}-${to}.csv`, toCsv(header, body));
  };

  return (
    <>
      <ul class="counts" aria-label="Store-days by status">
        {dayStatuses.map((status) => (
          <li key={status} class={`badge status-${status}`} data-testid={`count-${status}`}>
            {statusMarks[status]} {statusLabels[status]}: <strong>{formatCount(counts[status])}</strong>
          </li>
        ))}
        <li class={`badge ${counts.overdue > 0 ? 'overdue-count' : ''}`} data-testid="count-overdue">
          ⚠ Overdue closes: <strong>{formatCount(counts.overdue)}</strong>
        </li>
      </ul>
      {overdue.length > 0 && (
        <details class="overdue-list" open={overdue.length <= overdueListOpenUpTo}>
          <summary>
            {formatCount(overdue.length)} close{overdue.length === 1 ? '' : 's'} overdue
          </summary>
          <ul>
            {overdue.map(({ row, day }) => (
              <li key={`${row.partner_id}/${row.store_id}/${day.business_date}`}>
                <a href={hrefOf(['day', row.partner_id, row.store_id, day.business_date])}>
                  {row.partner_id} · {row.store_id}
                  {row.store_name ? ` ${row.store_name}` : ''} · {formatBusinessDate(day.business_date)}
                </a>{' '}
                <span class="muted">due {formatInstant(day.close_due_at)}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <div class="table-tools">
        <span class="muted">
          {formatCount(rows.length)} store{rows.length === 1 ? '' : 's'} · arrow keys move between days
        </span>
        <button type="button" class="secondary" onClick={exportCsv} disabled={rows.length === 0}>
          Export CSV<span class="visually-hidden"> of the reconciliation grid</span>
        </button>
      </div>
      <div class="table-scroll grid-scroll">
        <table class="grid" data-testid="grid">
          <caption class="visually-hidden">
            Reconciliation status per store and business date, {formatBusinessDate(from)} to {formatBusinessDate(to)}
          </caption>
          <thead>
            <tr>
              {sortButton('store', 'Store')}
              {sortButton('name', 'Name')}
              {sortButton('problems', 'Issues')}
              {dates.map((date) => (
                <th key={date} scope="col" class="day-head">
                  {formatGridDay(date)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody onKeyDown={moveFocus}>
            {sorted.length === 0 && (
              <tr>
                <td colSpan={dates.length + 3} class="muted">
                  No store has a day in this range.
                </td>
              </tr>
            )}
            {sorted.map((row, r) => {
              const byDate = new Map(row.days.map((day) => [day.business_date, day]));
              return (
                <tr key={`${row.partner_id}/${row.store_id}`} data-store={row.store_id} data-partner={row.partner_id}>
                  <th scope="row" class="store-head">
                    {row.store_id}
                    <span class="muted small">{row.partner_id}</span>
                  </th>
                  <td class="store-name">
                    {row.store_name ?? '—'}
                    {!row.active && <span class="muted small"> inactive</span>}
                  </td>
                  <td class="num">{problems(row) || ''}</td>
                  {dates.map((date, c) => {
                    const day = byDate.get(date);
                    const isTabStop = tabStop?.partnerId === row.partner_id && tabStop.storeId === row.store_id && tabStop.date === date;
                    return (
                      <GridCell
                        key={date}
                        row={row}
                        day={day}
                        r={r}
                        c={c}
                        date={date}
                        tabStop={isTabStop}
                        onFocus={() => {
                          setFocused({ partnerId: row.partner_id, storeId: row.store_id, date });
                        }}
                      />
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p class="legend muted">
        {dayStatuses.map((status) => (
          <span key={status} class={`badge status-${status}`}>
            {statusMarks[status]} {statusLabels[status]}
          </span>
        ))}
        <span class="badge status-NOT_RECEIVED overdue">! Overdue</span>
      </p>
    </>
  );
}

interface GridCellProps {
  readonly row: GridRow;
  readonly day: GridDay | undefined;
  readonly r: number;
  readonly c: number;
  readonly date: string;
  /** The grid's one tab stop (see gridTabStop). */
  readonly tabStop: boolean;
  readonly onFocus: () => void;
}

function GridCell({ row, day, r, c, date, tabStop, onFocus }: GridCellProps) {
  if (!day) return <td class="cell empty" />;
  const label = `${row.store_id} ${formatBusinessDate(date)}: ${statusLabels[day.status]}${day.overdue ? ', close overdue' : ''}`;
  return (
    <td class={`cell status-${day.status}${day.overdue ? ' overdue' : ''}`} data-date={date} data-status={day.status}>
      <a
        href={hrefOf(['day', row.partner_id, row.store_id, date])}
        aria-label={label}
        title={label}
        data-r={r}
        data-c={c}
        tabIndex={tabStop ? 0 : -1}
        onFocus={onFocus}
      >
        {day.overdue ? '!' : statusMarks[day.status]}
      </a>
    </td>
  );
}

/**
 * Arrow keys move between the grid's day links (one tab stop for the whole grid). The focused link
 * becomes the tab stop through its focus handler, so the tab stop is state that survives a sort.
 */
function moveFocus(event: KeyboardEvent): void {
  const target = event.target as HTMLElement;
  const r = Number(target.dataset.r);
  const c = Number(target.dataset.c);
  if (Number.isNaN(r) || Number.isNaN(c)) return;
  const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const move = moves[event.key];
  if (!move) return;
  const table = target.closest('tbody');
  // Skips empty cells (an inactive store's days without a close) in the direction of travel.
  for (let step = 1; step < 400; step += 1) {
    const next = table?.querySelector<HTMLElement>(`a[data-r="${r + move[0] * step}"][data-c="${c + move[1] * step}"]`);
    if (next) {
      event.preventDefault();
      // Chromium's focus() leaves a day that is partly in view where it is, maybe half under the
      // sticky store column or date row; scrolled to the nearest edge, it clears them (the grid's
      // scroll padding) and the view moves one day at a time.
      next.focus({ preventScroll: true });
      next.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      return;
    }
    if (r + move[0] * step < 0 || c + move[1] * step < 0) return;
  }
}

function problems(row: GridRow): number {
  return row.days.filter((day) => day.status === 'MISMATCHED' || day.overdue).length;
}

function sortRows(rows: readonly GridRow[], by: GridSort, descending: boolean): GridRow[] {
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  const byStore = (a: GridRow, b: GridRow) => collator.compare(a.partner_id, b.partner_id) || collator.compare(a.store_id, b.store_id);
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    if (by === 'name') return sign * collator.compare(a.store_name ?? '', b.store_name ?? '') || byStore(a, b);
    if (by === 'problems') return sign * (problems(a) - problems(b)) || byStore(a, b);
    return sign * byStore(a, b);
  });
}

function addCounts(all: readonly StatusCounts[]): StatusCounts {
  const total: Record<DayStatus | 'overdue', number> = { NOT_RECEIVED: 0, RECEIVED: 0, MATCHED: 0, MISMATCHED: 0, overdue: 0 };
  for (const counts of all) for (const name of Object.keys(total) as (DayStatus | 'overdue')[]) total[name] += counts[name];
  return total;
}

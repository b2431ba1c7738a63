import Big from 'big.js';
import { useMemo } from 'preact/hooks';
import type { SalesItem } from '../api/hqTypes.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { LoadedContent } from '../components/LoadedContent.js';
import { SalesChart, type ChartSeries } from '../components/SalesChart.js';
import { formatAmount } from '../format/formatAmount.js';
import { datesBetween, formatBusinessDate, rangeStart } from '../format/formatDate.js';
import { useSession } from '../session/Session.js';
import { useLoad } from '../useLoad.js';
import { DateRangeFields } from './DateRangeFields.js';
import { FilterForm } from './FilterForm.js';
import { PartnerPicker, todayIso } from './PartnerPicker.js';
import { useQueryField } from './useQueryField.js';

type GroupBy = 'store' | 'partner';

/** Daily net sales per partner or store over a range: a chart and a table per currency. */
export function SalesView({ query }: { readonly query: URLSearchParams }) {
  const { client } = useSession();
  const to = query.get('to') ?? todayIso();
  const from = query.get('from') ?? rangeStart(to, 14);
  const partner = query.get('partner') ?? '';
  // Per partner unless asked: one line per partner and day stays short whatever the number of
  // stores (per store, a chain of 2,000 stores over 15 days is 30,000 lines, past what the console
  // loads at once).
  const by: GroupBy = query.get('by') === 'store' ? 'store' : 'partner';
  const [byValue, setBy] = useQueryField(by);
  const sales = useLoad(
    () => client.getAll<SalesItem>('sales', { from, to, partner_id: partner, group_by: `${by},day` }),
    JSON.stringify([from, to, partner, by]),
  );
  return (
    <section aria-labelledby="sales-title">
      <h1 id="sales-title" tabIndex={-1}>
        Sales
      </h1>
      <FilterForm page="sales">
        <DateRangeFields from={from} to={to} />
        <PartnerPicker value={partner} />
        <label>
          Per
          <select
            name="by"
            value={byValue}
            onChange={(event) => {
              setBy(event.currentTarget.value === 'partner' ? 'partner' : 'store');
            }}
          >
            <option value="partner">partner</option>
            <option value="store">store</option>
          </select>
        </label>
      </FilterForm>
      <LoadedContent loaded={sales} what="sales" notServed="Sales figures are not served by this version of the service.">
        {(items) => <SalesBody items={items} from={from} to={to} by={by} />}
      </LoadedContent>
    </section>
  );
}

function SalesBody({ items, from, to, by }: { items: readonly SalesItem[]; from: string; to: string; by: GroupBy }) {
  const dates = useMemo(() => datesBetween(from, to), [from, to]);
  const currencies = useMemo(() => [...new Set(items.map((item) => item.currency))].sort(), [items]);
  if (items.length === 0) return <p class="muted">No sales in this range.</p>;
  return (
    <>
      {currencies.map((currency) => (
        <CurrencySales
          key={currency}
          currency={currency}
          items={items.filter((i) => i.currency === currency)}
          dates={dates}
          by={by}
          from={from}
          to={to}
        />
      ))}
    </>
  );
}

function CurrencySales(props: {
  currency: string;
  items: readonly SalesItem[];
  dates: readonly string[];
  by: GroupBy;
  from: string;
  to: string;
}) {
  const { currency, items, dates, by, from, to } = props;
  const label = (item: SalesItem) => (by === 'store' ? `${item.partner_id ?? ''} · ${item.store_id ?? ''}` : (item.partner_id ?? ''));
  const series = useMemo<ChartSeries[]>(() => {
    const byLabel = new Map<string, Map<string, string>>();
    for (const item of items) {
      const perDate = byLabel.get(label(item)) ?? new Map<string, string>();
      perDate.set(item.business_date ?? '', item.net_sales);
      byLabel.set(label(item), perDate);
    }
    return [...byLabel.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, perDate]) => ({ label: name, values: dates.map((date) => perDate.get(date) ?? null) }));
    // `label` depends on `by` alone.
  }, [items, dates, by]);
  const total = items.reduce((sum, item) => sum.plus(item.net_sales), new Big(0)).toFixed();
  const amount = (field: 'net_sales' | 'tax_amount' | 'tip_amount'): Column<SalesItem> => ({
    id: field,
    label: { net_sales: 'Net sales', tax_amount: 'Tax', tip_amount: 'Tips' }[field],
    value: (item) => ({ decimal: item[field] }),
    render: (item) => formatAmount(item[field], currency),
    numeric: true,
  });
  const columns: Column<SalesItem>[] = [
    {
      id: 'business_date',
      label: 'Date',
      value: (item) => item.business_date,
      render: (item) => (item.business_date ? formatBusinessDate(item.business_date) : '—'),
    },
    { id: 'partner_id', label: 'Partner', value: (item) => item.partner_id },
    ...(by === 'store' ? [{ id: 'store_id', label: 'Store', value: (item: SalesItem) => item.store_id }] : []),
    { id: 'currency', label: 'Currency', value: (item) => item.currency },
    amount('net_sales'),
    amount('tax_amount'),
    amount('tip_amount'),
    { id: 'transaction_count', label: 'Transactions', value: (item) => item.transaction_count, numeric: true },
  ];
  return (
    <section class="currency-block" aria-label={`Sales in ${currency}`} data-testid={`sales-${currency}`}>
      <h2>
        {currency} <span class="muted small">net sales {formatAmount(total, currency)}</span>
      </h2>
      <SalesChart currency={currency} dates={dates} series={series} />
      <DataTable
        caption={`Daily sales in ${currency}`}
        columns={columns}
        rows={items}
        rowKey={(item) => `${item.partner_id ?? ''}/${item.store_id ?? ''}/${item.business_date ?? ''}`}
        fileName={`sales-${currency}-${from}-${to}`}
        initialSort={{ id: 'business_date' }}
      />
    </section>
  );
}

import type { UnmappedItem } from '../api/hqTypes.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { LoadedContent } from '../components/LoadedContent.js';
import { formatAmount } from '../format/formatAmount.js';
import { formatBusinessDate } from '../format/formatDate.js';
import { useSession } from '../session/Session.js';
import { useLoad } from '../useLoad.js';
import { FilterForm } from './FilterForm.js';
import { PartnerPicker } from './PartnerPicker.js';

interface UnmappedRow {
  readonly partner_id: string;
  readonly source_transaction_type: string;
  readonly first_business_date: string;
  readonly last_business_date: string;
  readonly currency: string;
  readonly transaction_count: number;
  readonly net_sales: string;
  readonly tax_amount: string;
  readonly tip_amount: string;
}

/** Transactions held back from the sales figures because their source code has no mapping, with amounts. */
export function UnmappedView({ query }: { readonly query: URLSearchParams }) {
  const { client } = useSession();
  const partner = query.get('partner') ?? '';
  const unmapped = useLoad(async () => {
    const items = await client.getAll<UnmappedItem>('unmapped', { partner_id: partner });
    return items.flatMap((item) =>
      item.by_currency.map((c): UnmappedRow => ({
        partner_id: item.partner_id,
        source_transaction_type: item.source_transaction_type,
        first_business_date: item.first_business_date,
        last_business_date: item.last_business_date,
        ...c,
      })),
    );
  }, partner);
  const amount = (field: 'net_sales' | 'tax_amount' | 'tip_amount', label: string): Column<UnmappedRow> => ({
    id: field,
    label,
    value: (row) => ({ decimal: row[field] }),
    render: (row) => formatAmount(row[field], row.currency),
    numeric: true,
  });
  const columns: Column<UnmappedRow>[] = [
    { id: 'partner_id', label: 'Partner', value: (row) => row.partner_id },
    {
      id: 'source_transaction_type',
      label: 'Source code',
      value: (row) => row.source_transaction_type,
      render: (row) => <code>{row.source_transaction_type}</code>,
    },
    { id: 'currency', label: 'Currency', value: (row) => row.currency },
    { id: 'transaction_count', label: 'Transactions', value: (row) => row.transaction_count, numeric: true },
    amount('net_sales', 'Net sales'),
    amount('tax_amount', 'Tax'),
    amount('tip_amount', 'Tips'),
    {
      id: 'first_business_date',
      label: 'First day',
      value: (row) => row.first_business_date,
      render: (row) => formatBusinessDate(row.first_business_date),
    },
    {
      id: 'last_business_date',
      label: 'Last day',
      value: (row) => row.last_business_date,
      render: (row) => formatBusinessDate(row.last_business_date),
    },
  ];
  return (
    <section aria-labelledby="unmapped-title">
      <h1 id="unmapped-title" tabIndex={-1}>
        Unmapped codes
      </h1>
      <p class="muted">
        Transactions whose source type has no mapping are kept but left out of the sales figures until the partner maps the code.
      </p>
      <FilterForm page="unmapped">
        <PartnerPicker value={partner} />
      </FilterForm>
      <LoadedContent loaded={unmapped} what="unmapped codes" notServed="Unmapped codes are not served by this version of the service.">
        {(rows) => (
          <DataTable
            caption="Unmapped source codes"
            columns={columns}
            rows={rows}
            rowKey={(row) => `${row.partner_id}/${row.source_transaction_type}/${row.currency}`}
            fileName="unmapped-codes"
            initialSort={{ id: 'transaction_count', descending: true }}
            empty="No transaction is held back."
            testId="unmapped"
          />
        )}
      </LoadedContent>
    </section>
  );
}

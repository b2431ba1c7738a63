import type { ComparisonRow, DayBatch, StoreDay } from '../api/hqTypes.js';
import { pathOf } from '../api/HqClient.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { LoadedContent } from '../components/LoadedContent.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { formatAmount, formatCount } from '../format/formatAmount.js';
import { isCalendarDate } from '../../../src/domain/validation/isCalendarDate.js';
import { controlTotalLabels } from '../../../src/domain/reconciliation/controlTotalLabels.js';
import { formatBusinessDate, formatInstant, rangeAround } from '../format/formatDate.js';
import { hrefOf } from '../route.js';
import { useSession } from '../session/Session.js';
import { useLoad } from '../useLoad.js';
import { todayIso } from './PartnerPicker.js';

interface DayProps {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
}

/**
 * One store-day: expected vs actual vs difference per control total, the diagnosis, the batches.
 * The date comes from a link anyone can edit: one that is no calendar day gets a message instead
 * of date arithmetic that throws (blanking the app) or rolls 30 February over to March.
 */
export function DayView(props: DayProps) {
  if (isCalendarDate(props.businessDate)) return <LoadedDay {...props} />;
  return (
    <section aria-labelledby="day-title">
      <p>
        <a href={hrefOf(['grid'], { partner: props.partnerId })}>← Reconciliation grid</a>
      </p>
      <h1 id="day-title" tabIndex={-1}>
        No such business date
      </h1>
      <p class="error" role="alert" data-testid="invalid-date">
        The link names the date “{props.businessDate}”, which is not a calendar date (YYYY-MM-DD, a day that exists).
      </p>
    </section>
  );
}

function LoadedDay({ partnerId, storeId, businessDate }: DayProps) {
  const { client } = useSession();
  const day = useLoad(
    () => client.get<StoreDay>(`store-days/${pathOf(partnerId, storeId, businessDate)}`),
    JSON.stringify([partnerId, storeId, businessDate]),
  );
  const back = hrefOf(['grid'], { partner: partnerId, ...rangeAround(businessDate, todayIso()) });
  return (
    <section aria-labelledby="day-title">
      <p>
        <a href={back}>← Grid around this day</a>
      </p>
      <h1 id="day-title" tabIndex={-1}>
        {storeId} · {formatBusinessDate(businessDate)}
        <span class="muted small"> {partnerId}</span>
      </h1>
      <LoadedContent loaded={day} what="the store-day">
        {(data) => <DayBody day={data} />}
      </LoadedContent>
    </section>
  );
}

function DayBody({ day }: { day: StoreDay }) {
  const currency = day.currency ?? day.close?.currency ?? undefined;
  const show = (field: string, value: string) =>
    field.endsWith('_count') || currency === undefined ? formatCount(Number(value)) : formatAmount(value, currency);
  const comparisonColumns: Column<ComparisonRow>[] = [
    {
      id: 'field',
      label: 'Control total',
      value: (row) => (controlTotalLabels as Readonly<Record<string, string>>)[row.field] ?? row.field,
      csv: (row) => row.field,
    },
    {
      id: 'expected',
      label: 'Expected (close)',
      value: (row) => ({ decimal: row.expected }),
      render: (row) => show(row.field, row.expected),
      numeric: true,
    },
    {
      id: 'actual',
      label: 'Actual (received)',
      value: (row) => ({ decimal: row.actual }),
      render: (row) => show(row.field, row.actual),
      numeric: true,
    },
    {
      id: 'difference',
      label: 'Difference',
      value: (row) => (row.difference === null ? undefined : { decimal: row.difference }),
      render: (row) => (
        <span class={row.differs ? 'differs' : undefined}>{row.difference === null ? '—' : show(row.field, row.difference)}</span>
      ),
      numeric: true,
    },
    {
      id: 'differs',
      label: 'Result',
      value: (row) => (row.differs ? 'differs' : 'matches'),
      render: (row) => (row.differs ? <strong class="differs">✗ differs</strong> : <span class="ok">✓ matches</span>),
    },
  ];
  const batchColumns: Column<DayBatch>[] = [
    { id: 'batch_seq', label: 'Seq', value: (b) => b.batch_seq, numeric: true },
    { id: 'batch_id', label: 'Batch id', value: (b) => b.batch_id, render: (b) => <code>{b.batch_id}</code> },
    {
      id: 'received_at',
      label: 'Received',
      value: (b) => b.received_at ?? undefined,
      render: (b) => (b.received_at === null ? '—' : formatInstant(b.received_at)),
    },
    { id: 'record_count', label: 'Transactions', value: (b) => b.record_count, numeric: true },
    {
      id: 'after_close',
      label: 'After close',
      value: (b) => (b.after_close ? 'yes' : 'no'),
      render: (b) => (b.after_close ? <strong class="differs">yes</strong> : 'no'),
    },
    {
      id: 'failed',
      label: 'Failed',
      value: (b) => (b.failed ? 'yes' : 'no'),
      render: (b) => (b.failed ? <strong class="differs">yes</strong> : 'no'),
    },
  ];
  const diagnosis = day.diagnosis;
  const base = `store-day-${day.partner_id}-${day.store_id}-${day.business_date}`;
  return (
    <>
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd data-testid="day-status">
            <StatusBadge status={day.status} overdue={day.overdue} />
          </dd>
        </div>
        <div>
          <dt>Close due</dt>
          <dd>{formatInstant(day.close_due_at)}</dd>
        </div>
        <div>
          <dt>Close received</dt>
          <dd>{day.close ? formatInstant(day.close.received_at) : '—'}</dd>
        </div>
        <div>
          <dt>Checked</dt>
          <dd>{day.checked_at ? formatInstant(day.checked_at) : 'not yet'}</dd>
        </div>
        {day.next_run_due_at && (
          <div>
            <dt>Next run</dt>
            <dd data-testid="next-run">
              due {formatInstant(day.next_run_due_at)}
              {day.checked_at && <span class="muted"> (the figures are the last run's until then)</span>}
            </dd>
          </div>
        )}
        <div>
          <dt>Batches announced</dt>
          <dd>{day.close ? formatCount(day.close.batch_count) : '—'}</dd>
        </div>
        <div>
          <dt>Currency</dt>
          <dd>{currency ?? '—'}</dd>
        </div>
      </dl>
      <h2>Control totals</h2>
      <DataTable
        caption="Control totals"
        columns={comparisonColumns}
        rows={day.comparison}
        rowKey={(row) => row.field}
        fileName={`${base}-totals`}
        empty={day.close ? 'Not reconciled yet.' : 'No daily close received.'}
        testId="comparison"
      />
      <h2>Diagnosis</h2>
      {diagnosis ? (
        <ul class="diagnosis" data-testid="diagnosis">
          <li>
            Missing batch_seq: <strong>{diagnosis.missing_batch_seqs.length ? diagnosis.missing_batch_seqs.join(', ') : 'none'}</strong>
          </li>
          <li>
            Unexpected batch_seq:{' '}
            <strong>{diagnosis.unexpected_batch_seqs.length ? diagnosis.unexpected_batch_seqs.join(', ') : 'none'}</strong>
          </li>
          <li>
            Batches after the close: <strong>{formatCount(diagnosis.batches_after_close)}</strong>
          </li>
          <li>
            Unmapped transaction types:{' '}
            <strong>
              {countedCodes(
                diagnosis.unmapped_transaction_types.map((t) => [t.source_code, t.transaction_count]),
                'transaction',
                'transactions',
              )}
            </strong>
          </li>
          <li>
            Unknown payment types:{' '}
            <strong>
              {countedCodes(
                diagnosis.unknown_payment_types.map((t) => [t.payment_type, t.payment_count]),
                'payment',
                'payments',
              )}
            </strong>
          </li>
        </ul>
      ) : (
        <p class="muted">{day.close ? 'Not reconciled yet.' : 'No daily close received.'}</p>
      )}
      {diagnosis && diagnosis.hints.length > 0 && (
        <>
          {/* The hints are the partner's, as its GET of the day answers them: "your" is the partner. */}
          <h3>What the partner is told</h3>
          <ul class="diagnosis" data-testid="hints">
            {diagnosis.hints.map((hint) => (
              <li key={hint} class="hint">
                {hint}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Batches received</h2>
      {day.batches_truncated && <p class="muted">Only the first 1,000 batches are listed.</p>}
      <DataTable
        caption="Batches received"
        columns={batchColumns}
        rows={day.batches}
        rowKey={(b) => b.batch_id}
        fileName={`${base}-batches`}
        initialSort={{ id: 'batch_seq' }}
        empty="No transaction batch received for this day."
        testId="batches"
      />
    </>
  );
}

/** "S99 (3 transactions), X1 (1 transaction)", or "none". */
function countedCodes(codes: readonly (readonly [string, number])[], one: string, many: string): string {
  if (codes.length === 0) return 'none';
  return codes.map(([code, count]) => `${code} (${formatCount(count)} ${count === 1 ? one : many})`).join(', ');
}

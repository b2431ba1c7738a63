import type { Partner, UncommittedBatch, WebhookFailure, WebhookFailureList } from '../api/hqTypes.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { LoadedContent } from '../components/LoadedContent.js';
import { formatInstant } from '../format/formatDate.js';
import { hrefOf } from '../route.js';
import { useSession } from '../session/Session.js';
import { useLoad } from '../useLoad.js';

/** The most dead letters the API lists at once. */
const webhookFailureLimit = '500';

/**
 * Batches not committed (pending or failed), webhook deliveries given up, and every partner, with
 * links to their stores and keys.
 */
export function OperationsView() {
  const { client } = useSession();
  const pending = useLoad(() => client.getAll<UncommittedBatch>('batches', { state: 'pending' }), 'pending');
  const failed = useLoad(() => client.getAll<UncommittedBatch>('batches', { state: 'failed' }), 'failed');
  const partners = useLoad(() => client.getAll<Partner>('partners'), 'partners');
  const webhookFailures = useLoad(() => client.get<WebhookFailureList>('webhook-failures', { limit: webhookFailureLimit }), 'webhooks');

  const batchColumns = (state: 'pending' | 'failed'): Column<UncommittedBatch>[] => [
    partnerColumn(),
    { id: 'batch_id', label: 'Batch id', value: (b) => b.batch_id, render: (b) => <code>{b.batch_id}</code> },
    { id: 'kind', label: 'Kind', value: (b) => b.kind },
    { id: 'created_at', label: 'Received', value: (b) => b.created_at, render: (b) => formatInstant(b.created_at) },
    ...(state === 'failed'
      ? [
          {
            id: 'failed_at',
            label: 'Failed',
            value: (b: UncommittedBatch) => b.failed_at ?? undefined,
            render: (b: UncommittedBatch) => (b.failed_at ? formatInstant(b.failed_at) : '—'),
          },
          { id: 'failure', label: 'Storage answered', value: (b: UncommittedBatch) => b.failure ?? undefined },
        ]
      : []),
  ];
  const webhookColumns: Column<WebhookFailure>[] = [
    partnerColumn(),
    { id: 'event_type', label: 'Event', value: (f) => f.event_type },
    { id: 'event_id', label: 'Event id', value: (f) => f.event_id, render: (f) => <code>{f.event_id}</code> },
    { id: 'attempts', label: 'Attempts', value: (f) => f.attempts, numeric: true },
    {
      id: 'last_error',
      label: 'Last error',
      value: (f) => (f.last_status === null ? f.last_error_class : `${f.last_error_class} ${f.last_status}`),
    },
    { id: 'target_origin', label: 'Endpoint', value: (f) => f.target_origin },
    { id: 'dead_lettered_at', label: 'Given up', value: (f) => f.dead_lettered_at, render: (f) => formatInstant(f.dead_lettered_at) },
  ];
  const partnerColumns: Column<Partner>[] = [
    partnerColumn(),
    { id: 'name', label: 'Name', value: (p) => p.name },
    { id: 'status', label: 'Status', value: (p) => p.status, render: (p) => <span class={`pill ${p.status}`}>{p.status}</span> },
    {
      id: 'rate_limit_per_minute',
      label: 'Pushes per minute',
      value: (p) => p.rate_limit_per_minute,
      render: (p) => `${new Intl.NumberFormat().format(p.rate_limit_per_minute)}${p.rate_limit_is_default ? ' (default)' : ''}`,
      numeric: true,
    },
    { id: 'created_at', label: 'Created', value: (p) => p.created_at, render: (p) => formatInstant(p.created_at) },
  ];

  return (
    <section aria-labelledby="ops-title">
      <h1 id="ops-title" tabIndex={-1}>
        Operations
      </h1>
      <h2>Pending batches</h2>
      <p class="muted">Received but not committed yet; the background sweep finishes or drops them.</p>
      <LoadedContent loaded={pending} what="pending batches">
        {(rows) => (
          <DataTable
            caption="Pending batches"
            columns={batchColumns('pending')}
            rows={rows}
            rowKey={(b) => `${b.partner_id}/${b.batch_id}`}
            fileName="batches-pending"
            initialSort={{ id: 'created_at' }}
            empty="No batch is pending."
            testId="pending"
          />
        )}
      </LoadedContent>
      <h2>Failed batches</h2>
      <p class="muted">Storage refused their content; they are final and never counted.</p>
      <LoadedContent loaded={failed} what="failed batches">
        {(rows) => (
          <DataTable
            caption="Failed batches"
            columns={batchColumns('failed')}
            rows={rows}
            rowKey={(b) => `${b.partner_id}/${b.batch_id}`}
            fileName="batches-failed"
            initialSort={{ id: 'created_at', descending: true }}
            empty="No batch has failed."
            testId="failed"
          />
        )}
      </LoadedContent>
      <h2>Webhook deliveries given up</h2>
      <p class="muted">
        Events a partner's endpoint did not take within 24 hours of attempts, or refused with 410 Gone (then at once, and the endpoint is
        disabled until the partner registers it again). Send one again once the endpoint is fixed, or drop it, with the HQ tool:{' '}
        <code>webhook resend</code> or <code>webhook dismiss</code>.
      </p>
      <LoadedContent loaded={webhookFailures} what="webhook deliveries given up">
        {(list) => (
          <>
            <DataTable
              caption="Webhook deliveries given up"
              columns={webhookColumns}
              rows={list.items}
              rowKey={(f) => `${f.partner_id}/${f.event_id}`}
              fileName="webhook-failures"
              initialSort={{ id: 'dead_lettered_at', descending: true }}
              empty="No webhook delivery has been given up."
              testId="webhook-failures"
            />
            {list.items_truncated && (
              <p class="muted">
                Only the newest {webhookFailureLimit} are shown; older ones are listed per partner by the API and the HQ tool.
              </p>
            )}
          </>
        )}
      </LoadedContent>
      <h2>Partners</h2>
      <LoadedContent loaded={partners} what="partners">
        {(rows) => (
          <DataTable
            caption="Partners"
            columns={partnerColumns}
            rows={rows}
            rowKey={(p) => p.partner_id}
            fileName="partners"
            initialSort={{ id: 'partner_id' }}
            testId="partners"
          />
        )}
      </LoadedContent>
    </section>
  );
}

/** The partner of a row, linked to the partner's page. */
function partnerColumn<T extends { readonly partner_id: string }>(): Column<T> {
  return {
    id: 'partner_id',
    label: 'Partner',
    value: (row) => row.partner_id,
    render: (row) => <a href={hrefOf(['partners', row.partner_id])}>{row.partner_id}</a>,
  };
}

import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { Partner, PartnerKey, PaymentDirection, RegisteredStore, StoreRegistration } from '../api/hqTypes.js';
import { pathOf } from '../api/HqClient.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { LoadedContent } from '../components/LoadedContent.js';
import { formatInstant } from '../format/formatDate.js';
import { hrefOf } from '../route.js';
import { useSession } from '../session/Session.js';
import { useLoad } from '../useLoad.js';
import { readStoreIdLines } from './readStoreIdLines.js';

/**
 * A partner with its stores, keys (ids, status, expiry; never a key) and payment directions. An
 * admin also gets the actions, each behind a confirmation; a viewer sees none (and the API would
 * refuse them anyway).
 */
export function PartnerView({ partnerId }: { readonly partnerId: string }) {
  const { client, isAdmin } = useSession();
  const base = `partners/${pathOf(partnerId)}`;
  const partner = useLoad(() => client.get<Partner>(base), `${partnerId}/partner`);
  const stores = useLoad(() => client.getAll<RegisteredStore>(`${base}/stores`), `${partnerId}/stores`);
  const keys = useLoad(() => client.getAll<PartnerKey>(`${base}/keys`), `${partnerId}/keys`);
  const directions = useLoad(() => client.getAll<PaymentDirection>(`${base}/payment-directions`), `${partnerId}/directions`);
  // Numbered, so that a notice repeating the last one (the same ids registered twice) takes the focus too.
  const [notice, setNoticeText] = useState<{ text: string; n: number } | undefined>();
  const setNotice = (text: string) => {
    setNoticeText((previous) => ({ text, n: (previous?.n ?? 0) + 1 }));
  };
  const noticeElement = useRef<HTMLParagraphElement>(null);
  // An action's button may be gone once it is done (a revoked key has none, a retired store gets
  // Reactivate instead): the focus goes to what happened rather than dropping to <body>. Taking the
  // focus is how the notice is read out, so it is no live region as well (it would be read twice).
  useEffect(() => {
    if (notice) noticeElement.current?.focus();
  }, [notice]);

  const storeColumns: Column<RegisteredStore>[] = [
    {
      id: 'store_id',
      label: 'Store',
      value: (s) => s.store_id,
      render: (s) => <a href={hrefOf(['grid'], { partner: partnerId })}>{s.store_id}</a>,
    },
    { id: 'store_name', label: 'Name', value: (s) => s.store_name ?? undefined },
    { id: 'currency', label: 'Currency', value: (s) => s.currency ?? undefined },
    { id: 'time_zone', label: 'Time zone', value: (s) => s.time_zone ?? undefined },
    { id: 'workday_start', label: 'Day starts', value: (s) => s.workday_start ?? undefined },
    { id: 'status', label: 'Status', value: (s) => s.status ?? undefined },
    {
      id: 'registered_at',
      label: 'Registered',
      value: (s) => s.registered_at ?? undefined,
      render: (s) => (s.registered_at === null ? '—' : formatInstant(s.registered_at)),
    },
    {
      id: 'registration_status',
      label: 'Registration',
      value: (s) => s.registration_status,
      render: (s) => <span class={`pill ${s.registration_status}`}>{s.registration_status}</span>,
    },
    {
      id: 'retired_at',
      label: 'Retired',
      value: (s) => s.retired_at ?? undefined,
      render: (s) => (s.retired_at ? formatInstant(s.retired_at) : '—'),
    },
    ...(isAdmin
      ? [
          {
            id: 'action',
            label: 'Action',
            value: () => undefined,
            csv: () => '',
            render: (s: RegisteredStore) =>
              s.registration_status === 'ACTIVE' ? (
                <ConfirmButton
                  label="Retire"
                  describe={`store ${s.store_id}`}
                  danger
                  question={`Retire store ${s.store_id} of partner ${partnerId}? Everything the partner sends for it is refused (403), within the service's partner cache time (30 s in Azure). Its batches, results and reports stay, and it can be reactivated.`}
                  confirmLabel="Retire store"
                  onConfirm={async () => {
                    await client.post(`${base}/stores/${pathOf(s.store_id)}/retire`);
                    setNotice(`Store ${s.store_id} retired.`);
                    stores.reload();
                  }}
                />
              ) : (
                <ConfirmButton
                  label="Reactivate"
                  describe={`store ${s.store_id}`}
                  question={`Reactivate store ${s.store_id} of partner ${partnerId}? The partner may send for it again at once.`}
                  confirmLabel="Reactivate store"
                  onConfirm={async () => {
                    await client.post(`${base}/stores/${pathOf(s.store_id)}/reactivate`);
                    setNotice(`Store ${s.store_id} reactivated.`);
                    stores.reload();
                  }}
                />
              ),
          },
        ]
      : []),
  ];
  const keyColumns: Column<PartnerKey>[] = [
    { id: 'key_id', label: 'Key id', value: (k) => k.key_id, render: (k) => <code>{k.key_id}</code> },
    { id: 'status', label: 'Status', value: (k) => k.status, render: (k) => <span class={`pill ${k.status}`}>{k.status}</span> },
    { id: 'created_at', label: 'Created', value: (k) => k.created_at, render: (k) => formatInstant(k.created_at) },
    {
      id: 'expires_at',
      label: 'Expires',
      value: (k) => k.expires_at ?? undefined,
      render: (k) => (k.expires_at ? formatInstant(k.expires_at) : 'never'),
    },
    {
      id: 'revoked_at',
      label: 'Revoked',
      value: (k) => k.revoked_at ?? undefined,
      render: (k) => (k.revoked_at ? formatInstant(k.revoked_at) : '—'),
    },
    ...(isAdmin
      ? [
          {
            id: 'action',
            label: 'Action',
            value: () => undefined,
            csv: () => '',
            render: (k: PartnerKey) =>
              k.status === 'REVOKED' ? null : (
                <ConfirmButton
                  label="Revoke"
                  describe={`key ${k.key_id}`}
                  danger
                  question={`Revoke key ${k.key_id} of partner ${partnerId}? Every request with it is refused from now on.`}
                  confirmLabel="Revoke key"
                  onConfirm={async () => {
                    await client.post(`${base}/keys/${pathOf(k.key_id)}/revoke`);
                    setNotice(`Key ${k.key_id} revoked.`);
                    keys.reload();
                  }}
                />
              ),
          },
        ]
      : []),
  ];
  const directionColumns: Column<PaymentDirection>[] = [
    { id: 'payment_type', label: 'Payment type', value: (d) => d.payment_type, render: (d) => <code>{d.payment_type}</code> },
    { id: 'direction', label: 'Direction', value: (d) => d.direction, render: (d) => directionText(d.direction), numeric: true },
  ];

  return (
    <section aria-labelledby="partner-title">
      <p>
        <a href="#/operations">← Operations</a>
      </p>
      <h1 id="partner-title" tabIndex={-1}>
        Partner {partnerId}
      </h1>
      {notice && (
        <p class="notice" tabIndex={-1} ref={noticeElement}>
          {notice.text}
        </p>
      )}
      <LoadedContent loaded={partner} what="the partner">
        {(data) => (
          <div class="partner-head">
            <dl class="facts">
              <div>
                <dt>Name</dt>
                <dd>{data.name}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd data-testid="partner-status">
                  <span class={`pill ${data.status}`}>{data.status}</span>
                </dd>
              </div>
              <div>
                <dt>Pushes per minute</dt>
                <dd>
                  {data.rate_limit_per_minute}
                  {data.rate_limit_is_default ? ' (default)' : ''}
                </dd>
              </div>
            </dl>
            {isAdmin && (
              <div class="actions" data-testid="partner-actions">
                {data.status === 'ACTIVE' ? (
                  <ConfirmButton
                    label="Deactivate partner"
                    danger
                    question={`Deactivate partner ${partnerId}? Every request of theirs is refused (403) until the partner is activated again.`}
                    confirmLabel="Deactivate"
                    onConfirm={async () => {
                      await client.post(`${base}/deactivate`);
                      setNotice(`Partner ${partnerId} deactivated.`);
                      partner.reload();
                    }}
                  />
                ) : (
                  <ConfirmButton
                    label="Activate partner"
                    question={`Activate partner ${partnerId} again? Their keys work again at once.`}
                    confirmLabel="Activate"
                    onConfirm={async () => {
                      await client.post(`${base}/activate`);
                      setNotice(`Partner ${partnerId} activated.`);
                      partner.reload();
                    }}
                  />
                )}
              </div>
            )}
          </div>
        )}
      </LoadedContent>

      <h2>Stores</h2>
      {isAdmin && (
        <RegisterStores
          partnerId={partnerId}
          onDone={(result) => {
            // One id per line: an id may hold ", " itself.
            setNotice(
              [
                result.registered.length === 0 ? 'Registered: none' : 'Registered:',
                ...result.registered,
                result.already_registered.length === 0 ? 'Already registered: none' : 'Already registered:',
                ...result.already_registered,
              ].join('\n'),
            );
            stores.reload();
          }}
        />
      )}
      <LoadedContent loaded={stores} what="stores" quietWhileLoading>
        {(rows) => (
          <DataTable
            caption="Registered stores"
            columns={storeColumns}
            rows={rows}
            rowKey={(s) => s.store_id}
            fileName={`stores-${partnerId}`}
            initialSort={{ id: 'store_id' }}
            testId="stores"
          />
        )}
      </LoadedContent>

      <h2>Keys</h2>
      <p class="muted">Ids, status and expiry only; a key is shown once, when it is issued with the HQ tool.</p>
      <LoadedContent loaded={keys} what="keys" quietWhileLoading>
        {(rows) => (
          <DataTable
            caption="Keys"
            columns={keyColumns}
            rows={rows}
            rowKey={(k) => k.key_id}
            fileName={`keys-${partnerId}`}
            initialSort={{ id: 'created_at' }}
            testId="keys"
          />
        )}
      </LoadedContent>

      <h2>Payment directions</h2>
      {isAdmin && (
        <SetDirection
          partnerId={partnerId}
          onDone={(d) => {
            setNotice(`Direction of ${d.payment_type} set to ${directionText(d.direction)}.`);
            directions.reload();
          }}
        />
      )}
      <LoadedContent loaded={directions} what="payment directions" quietWhileLoading>
        {(rows) => (
          <DataTable
            caption="Payment directions"
            columns={directionColumns}
            rows={rows}
            rowKey={(d) => d.payment_type}
            fileName={`payment-directions-${partnerId}`}
            initialSort={{ id: 'payment_type' }}
            empty="Only the built-in payment types are used."
            testId="directions"
          />
        )}
      </LoadedContent>
    </section>
  );
}

function RegisterStores({ partnerId, onDone }: { partnerId: string; onDone: (result: StoreRegistration) => void }) {
  const { client } = useSession();
  const fieldId = useId();
  const hintId = useId();
  const problemId = useId();
  const [text, setText] = useState('');
  const { ids, paddedLines } = readStoreIdLines(text);
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <div class="field">
        <label for={fieldId}>Store ids to register, one store id per line</label>
        <textarea
          id={fieldId}
          value={text}
          rows={3}
          aria-describedby={paddedLines.length > 0 ? `${hintId} ${problemId}` : hintId}
          aria-invalid={paddedLines.length > 0}
          onInput={(event) => {
            setText(event.currentTarget.value);
          }}
          placeholder={'NYC-0002\nNYC-0003'}
          autocomplete="off"
          spellcheck={false}
        />
        <span id={hintId}>Spaces and commas are part of an id.</span>
      </div>
      <ConfirmButton
        label="Register stores"
        disabled={ids.length === 0 || paddedLines.length > 0}
        question={`Register these ${ids.length} store(s) for partner ${partnerId}, each id exactly as listed?`}
        items={ids}
        confirmLabel="Register"
        onConfirm={async () => {
          onDone(await client.post<StoreRegistration>(`partners/${pathOf(partnerId)}/stores`, { store_ids: ids }));
          setText('');
        }}
      />
      {paddedLines.length > 0 && (
        <p class="error" role="alert" id={problemId} data-testid="store-id-problem">
          {paddedLines.length === 1 ? 'Line' : 'Lines'} {paddedLines.join(', ')}{' '}
          {paddedLines.length === 1 ? 'starts or ends' : 'start or end'} with whitespace, almost always a typo: remove it (an id is
          registered exactly as typed).
        </p>
      )}
    </form>
  );
}

function SetDirection({ partnerId, onDone }: { partnerId: string; onDone: (direction: PaymentDirection) => void }) {
  const { client } = useSession();
  const [paymentType, setPaymentType] = useState('');
  const [direction, setDirection] = useState<1 | -1 | 0>(1);
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <label>
        Payment type
        <input
          type="text"
          value={paymentType}
          onInput={(event) => {
            setPaymentType(event.currentTarget.value.trim());
          }}
          placeholder="GIFT_CARD"
          autocomplete="off"
        />
      </label>
      <label>
        Direction
        <select
          value={String(direction)}
          onChange={(event) => {
            setDirection(Number(event.currentTarget.value) as 1 | -1 | 0);
          }}
        >
          <option value="1">{directionText(1)}</option>
          <option value="-1">{directionText(-1)}</option>
          <option value="0">{directionText(0)}</option>
        </select>
      </label>
      <ConfirmButton
        label="Set direction"
        disabled={paymentType === ''}
        question={`Set the direction of ${paymentType} for partner ${partnerId} to ${directionText(direction)}? Closed days that used it are reconciled again.`}
        confirmLabel="Set direction"
        onConfirm={async () => {
          onDone(
            await client.put<PaymentDirection>(`partners/${pathOf(partnerId)}/payment-directions`, {
              payment_type: paymentType,
              direction,
            }),
          );
        }}
      />
    </form>
  );
}

function directionText(direction: 1 | -1 | 0): string {
  return direction === 1 ? '+1 (money in)' : direction === -1 ? '−1 (money out)' : '0 (not counted)';
}

import type { Partner } from '../api/hqTypes.js';
import { useSession } from '../session/Session.js';
import { useLoad } from '../useLoad.js';
import { useQueryField } from './useQueryField.js';

/** A select of every partner (or "All partners"), for the filter forms. */
export function PartnerPicker({ value, name = 'partner' }: { readonly value: string; readonly name?: string }) {
  const { client } = useSession();
  const partners = useLoad(() => client.getAll<Partner>('partners'), 'partners');
  const [selected, setSelected] = useQueryField(value);
  return (
    <label>
      Partner
      <select
        name={name}
        value={selected}
        onChange={(event) => {
          setSelected(event.currentTarget.value);
        }}
      >
        <option value="">All partners</option>
        {(partners.data ?? []).map((p) => (
          <option key={p.partner_id} value={p.partner_id}>
            {p.name ? `${p.name} (${p.partner_id})` : p.partner_id}
          </option>
        ))}
        {value !== '' && !(partners.data ?? []).some((p) => p.partner_id === value) && <option value={value}>{value}</option>}
      </select>
    </label>
  );
}

/** Today's calendar date in the operator's time zone (ISO). */
export function todayIso(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())).toISOString().slice(0, 10);
}

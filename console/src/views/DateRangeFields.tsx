import { useQueryField } from './useQueryField.js';

/** The first and last business date of a filter form (both required, so a range is never open). */
export function DateRangeFields({ from, to }: { readonly from: string; readonly to: string }) {
  const [fromValue, setFrom] = useQueryField(from);
  const [toValue, setTo] = useQueryField(to);
  return (
    <>
      <label>
        From
        <input
          type="date"
          name="from"
          value={fromValue}
          required
          onInput={(event) => {
            setFrom(event.currentTarget.value);
          }}
        />
      </label>
      <label>
        To
        <input
          type="date"
          name="to"
          value={toValue}
          required
          onInput={(event) => {
            setTo(event.currentTarget.value);
          }}
        />
      </label>
    </>
  );
}

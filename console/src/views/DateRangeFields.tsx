import { useQueryField } from './useQueryField.js';

/** The first and last business date of a filter form (both required, so a range is never open). */
export function DateRangeFields({ from, to }: { readonly from: string; readonly to: string }) {
  return (
    <>
      <DateField label="From" name="from" fromQuery={from} />
      <DateField label="To" name="to" fromQuery={to} />
    </>
  );
}

function DateField({ label, name, fromQuery }: { readonly label: string; readonly name: string; readonly fromQuery: string }) {
  const [value, setValue] = useQueryField(fromQuery);
  return (
    <label>
      {label}
      <input
        type="date"
        name={name}
        value={value}
        required
        onInput={(event) => {
          setValue(event.currentTarget.value);
        }}
      />
    </label>
  );
}

/** The first and last business date of a filter form (both required, so a range is never open). */
export function DateRangeFields({ from, to }: { readonly from: string; readonly to: string }) {
  return (
    <>
      <label>
        From
        <input type="date" name="from" value={from} required />
      </label>
      <label>
        To
        <input type="date" name="to" value={to} required />
      </label>
    </>
  );
}

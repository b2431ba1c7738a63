import { useEffect, useState } from 'preact/hooks';

/**
 * A filter field's value: the query's at first and whenever the page's link changes (Back, a link,
 * another filter shown), and what the operator enters in between. A field given the query's value
 * straight would be set back to it on every render of its page (a load finishing), undoing what
 * was typed or ticked meanwhile.
 */
export function useQueryField<T>(fromQuery: T): [T, (value: T) => void] {
  const [value, setValue] = useState(fromQuery);
  // The router's state is the fragment: a page renders anew for each link it is shown for.
  const link = window.location.hash;
  useEffect(() => {
    setValue(fromQuery);
  }, [fromQuery, link]);
  return [value, setValue];
}

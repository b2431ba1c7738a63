/** The console's pages, addressed by the URL fragment so every page is a link and Back works. */
export type Route =
  | { readonly view: 'grid'; readonly query: URLSearchParams }
  | { readonly view: 'day'; readonly partnerId: string; readonly storeId: string; readonly businessDate: string }
  | { readonly view: 'sales'; readonly query: URLSearchParams }
  | { readonly view: 'unmapped'; readonly query: URLSearchParams }
  | { readonly view: 'operations' }
  | { readonly view: 'partner'; readonly partnerId: string };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = new URLSearchParams(search);
  const parts = path
    .split('/')
    .filter((part) => part !== '')
    .map((part) => safeDecode(part));
  const [view, a, b, c] = parts;
  if (view === 'day' && a !== undefined && b !== undefined && c !== undefined) {
    return { view: 'day', partnerId: a, storeId: b, businessDate: c };
  }
  if (view === 'partners' && a !== undefined) return { view: 'partner', partnerId: a };
  if (view === 'sales') return { view: 'sales', query };
  if (view === 'unmapped') return { view: 'unmapped', query };
  if (view === 'operations') return { view: 'operations' };
  return { view: 'grid', query };
}

/** The fragment link of a page: path segments encoded, empty query values left out. */
export function hrefOf(segments: readonly string[], query: Readonly<Record<string, string | undefined>> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
  const text = search.toString();
  return `#/${segments.map((s) => encodeURIComponent(s)).join('/')}${text ? `?${text}` : ''}`;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

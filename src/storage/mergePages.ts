/**
 * The pages of several listings as they arrive, whichever listing they come from. Each listing's
 * first page is requested at once, and its next one as soon as a page of it is handed out, so
 * every listing keeps one request running while the caller works through a page: at most one
 * request and one unread page per listing are held. With one listing this is a read-ahead.
 *
 * A failed listing fails the merge; the others are stopped and their requests left to finish
 * unread. A caller that stops early sends no further request: the listings ask for a page only when
 * the merge does, and the requests already sent finish unread. (Stopped before its first page, the
 * merge never runs its clean-up, and needs none: nothing more is asked of the listings.)
 */
export function mergePages<T>(listings: readonly AsyncIterator<T>[]): AsyncGenerator<T> {
  const pending = new Map<AsyncIterator<T>, Promise<{ listing: AsyncIterator<T>; result: IteratorResult<T> }>>();
  const request = (listing: AsyncIterator<T>): void => {
    const next = listing.next().then((result) => ({ listing, result }));
    // Awaited below; this only keeps a request whose merge was abandoned from reporting an unhandled rejection.
    next.catch(() => undefined);
    pending.set(listing, next);
  };
  listings.forEach(request);
  return (async function* merged() {
    try {
      while (pending.size > 0) {
        const { listing, result } = await Promise.race(pending.values());
        pending.delete(listing);
        if (result.done === true) continue;
        request(listing);
        yield result.value;
      }
    } finally {
      for (const listing of pending.keys()) void listing.return?.(undefined).catch(() => undefined);
    }
  })();
}

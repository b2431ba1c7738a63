import { describe, expect, it } from 'vitest';
import { ProductCatalog } from '../../../src/services/catalog/ProductCatalog.js';
import { testClock } from '../../support/testClock.js';

/** A listing the test settles by hand, counting how often the catalog starts one. */
function heldListings() {
  const pending: { resolve: (ids: Set<string>) => void; reject: (error: Error) => void }[] = [];
  return {
    pending,
    list: () =>
      new Promise<Set<string>>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  };
}

describe('ProductCatalog', () => {
  it('lets concurrent pushes of a partner wait on one listing, and answers from it for 30 s from its start', async () => {
    const clock = testClock();
    const listings = heldListings();
    const catalog = new ProductCatalog(listings, clock);
    const asked = Array.from({ length: 8 }, () => catalog.knownIds('acme'));
    // A slow listing is still shared after 30 s: a push then waits on it rather than starting another.
    clock.advance(40_000);
    asked.push(catalog.knownIds('acme'));
    expect(listings.pending).toHaveLength(1);
    listings.pending[0]?.resolve(new Set(['P-1']));
    for (const ids of await Promise.all(asked)) expect(ids).toEqual(new Set(['P-1']));

    // Its age counts from when it started (40 s ago): the next push lists again.
    const next = catalog.knownIds('acme');
    expect(listings.pending).toHaveLength(2);
    listings.pending[1]?.resolve(new Set(['P-1', 'P-2']));
    expect(await next).toEqual(new Set(['P-1', 'P-2']));
    clock.advance(29_999);
    expect(await catalog.knownIds('acme')).toEqual(new Set(['P-1', 'P-2']));
    expect(listings.pending).toHaveLength(2);
    clock.advance(1);
    void catalog.knownIds('acme');
    expect(listings.pending).toHaveLength(3);
  });

  it('lists each partner on its own', async () => {
    const clock = testClock();
    const catalog = new ProductCatalog({ list: (partnerId) => Promise.resolve(new Set([`${partnerId}-P`])) }, clock);
    expect(await catalog.knownIds('a')).toEqual(new Set(['a-P']));
    expect(await catalog.knownIds('b')).toEqual(new Set(['b-P']));
  });

  it('keeps no failed listing: its waiting pushes fail, the next one lists again', async () => {
    const listings = heldListings();
    const catalog = new ProductCatalog(listings, testClock());
    const first = [catalog.knownIds('acme'), catalog.knownIds('acme')];
    listings.pending[0]?.reject(new Error('storage unavailable'));
    for (const outcome of await Promise.allSettled(first)) expect(outcome.status).toBe('rejected');
    const again = catalog.knownIds('acme');
    expect(listings.pending).toHaveLength(2);
    listings.pending[1]?.resolve(new Set(['P-1']));
    expect(await again).toEqual(new Set(['P-1']));
  });

  it('lists again after an upload through this instance, even while an older listing runs', async () => {
    const listings = heldListings();
    const catalog = new ProductCatalog(listings, testClock());
    const before = catalog.knownIds('acme');
    catalog.forget('acme');
    const after = catalog.knownIds('acme');
    expect(listings.pending).toHaveLength(2);
    listings.pending[1]?.resolve(new Set(['P-1', 'P-NEW']));
    listings.pending[0]?.resolve(new Set(['P-1']));
    expect(await before).toEqual(new Set(['P-1']));
    expect(await after).toEqual(new Set(['P-1', 'P-NEW']));
    // The older listing, settled last, did not take the newer one's place.
    expect(await catalog.knownIds('acme')).toEqual(new Set(['P-1', 'P-NEW']));
    expect(listings.pending).toHaveLength(2);
  });

  it('distrusts a listing from the clock’s future', async () => {
    const clock = testClock();
    let listed = 0;
    const catalog = new ProductCatalog({ list: () => Promise.resolve(new Set([`v${++listed}`])) }, clock);
    expect(await catalog.knownIds('acme')).toEqual(new Set(['v1']));
    clock.advance(-1);
    expect(await catalog.knownIds('acme')).toEqual(new Set(['v2']));
  });
});

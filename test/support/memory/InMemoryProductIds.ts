import type { ProductIds } from '../../../src/services/ports/ProductIds.js';

/** Product ids in a map of sets, for unit tests of services. */
export class InMemoryProductIds implements ProductIds {
  private readonly ids = new Map<string, Set<string>>();

  add(partnerId: string, productIds: Iterable<string>): Promise<void> {
    const ids = this.ids.get(partnerId) ?? new Set<string>();
    for (const id of productIds) ids.add(id);
    this.ids.set(partnerId, ids);
    return Promise.resolve();
  }

  list(partnerId: string): Promise<Set<string>> {
    return Promise.resolve(new Set(this.ids.get(partnerId)));
  }
}

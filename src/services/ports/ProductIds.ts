/**
 * The distinct product_ids HQ holds product data for, per partner: one entry per id, however many
 * stores carry a product of that id. Ids are only ever added (products are never deleted).
 */
export interface ProductIds {
  /** Notes ids of products stored for the partner; an id noted again stays one entry. */
  add(partnerId: string, productIds: Iterable<string>): Promise<void>;
  /** Every id noted for the partner. */
  list(partnerId: string): Promise<Set<string>>;
}

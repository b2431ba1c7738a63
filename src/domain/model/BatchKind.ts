/**
 * The kinds of body a partner pushes, one per push endpoint (contract §4): each has its schema,
 * its processor and its ledger entries.
 */
export type BatchKind = 'tradeRecords' | 'dailyClose' | 'stores' | 'products' | 'mappings';

/** Each kind by the path it is pushed to below /pos/v1. */
export const batchEndpointPath: Readonly<Record<BatchKind, string>> = {
  tradeRecords: 'trade-records',
  dailyClose: 'daily-close',
  stores: 'stores',
  products: 'products',
  mappings: 'mappings/transaction-types',
};

/** Each kind as partners and operators know it: the HQ API's and the HQ tool's `kind`. */
export const batchKindName: Readonly<Record<BatchKind, string>> = {
  tradeRecords: 'trade-records',
  dailyClose: 'daily-close',
  stores: 'stores',
  products: 'products',
  mappings: 'mappings',
};

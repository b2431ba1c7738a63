/**
 * The kinds of body a partner pushes, one per push endpoint (contract §4): each has its schema,
 * its processor and its ledger entries.
 */
export type BatchKind = 'tradeRecords' | 'dailyClose' | 'stores' | 'products' | 'mappings';

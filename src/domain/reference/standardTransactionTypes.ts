import list from './standard-transaction-types.json';
import type { LocalizedText } from '../model/payloads.js';

/** One entry of the HQ standard transaction type list (contract §2.6). */
export interface StandardTransactionType {
  readonly code: string;
  readonly name: LocalizedText;
  /** Whether transactions mapped to this type count toward net sales, tax and tip totals. */
  readonly is_revenue: boolean;
  /** 1, -1 or 0; null when the sign follows the item lines (EXCHANGE). */
  readonly amount_sign: 1 | -1 | 0 | null;
  readonly description: string;
}

/** The versioned list served by GET /reference/transaction-types (contract §4.9). */
export interface StandardTransactionTypeList {
  /** Code-table version: a date, changed whenever a code is added, removed or changed. */
  readonly version: string;
  readonly data: readonly StandardTransactionType[];
}

function fail(message: string): never {
  throw new Error(`standard-transaction-types.json: ${message}`);
}

function checkedType(entry: unknown, index: number): StandardTransactionType {
  if (typeof entry !== 'object' || entry === null) fail(`data[${index}] is not an object`);
  const e = entry as Record<string, unknown>;
  const { code, name, is_revenue, amount_sign, description } = e;
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(code)) fail(`data[${index}].code is not an upper-case code`);
  if (typeof name !== 'object' || name === null || Array.isArray(name)) fail(`${code}: name is not localized text`);
  const names = Object.entries(name as Record<string, unknown>);
  if (names.length === 0 || names.some(([, v]) => typeof v !== 'string' || v === '')) {
    fail(`${code}: name needs at least one non-empty locale`);
  }
  if (typeof is_revenue !== 'boolean') fail(`${code}: is_revenue is not a boolean`);
  if (amount_sign !== 1 && amount_sign !== -1 && amount_sign !== 0 && amount_sign !== null) {
    fail(`${code}: amount_sign is not 1, -1, 0 or null`);
  }
  if (typeof description !== 'string' || description === '') fail(`${code}: description is empty`);
  return Object.freeze({
    code,
    name: Object.freeze(Object.fromEntries(names as [string, string][])),
    is_revenue,
    amount_sign,
    description,
  });
}

function checkedList(raw: unknown): StandardTransactionTypeList {
  const { version, data } = raw as { version?: unknown; data?: unknown };
  if (typeof version !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(version)) fail('version is not a YYYY-MM-DD date');
  if (!Array.isArray(data) || data.length === 0) fail('data is not a non-empty array');
  const types = data.map(checkedType);
  const codes = new Set(types.map((t) => t.code));
  if (codes.size !== types.length) fail('duplicate code');
  for (const required of ['SALE', 'REFUND', 'VOID', 'RETURN', 'EXCHANGE', 'NO_SALE']) {
    if (!codes.has(required)) fail(`the contract's code ${required} is missing`);
  }
  return Object.freeze({ version, data: Object.freeze(types) });
}

/** The standard transaction type list, checked and deeply frozen when the module loads. */
export const standardTransactionTypes: StandardTransactionTypeList = checkedList(list);

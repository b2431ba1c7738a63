import { defaultWebhookFailures, maxWebhookFailures } from '../../services/webhooks/WebhookFailureQuery.js';
import { BUILT_IN_PAYMENT_DIRECTIONS } from '../../domain/reconciliation/paymentDirection.js';
import { businessDateWindowText } from '../../domain/validation/checkBusinessDate.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../../config/findProjectRoot.js';
import { hqLimits } from '../hqLimits.js';

/**
 * JSON Schemas of the HQ API's query strings and bodies, built from `hqLimits` so each limit is
 * written once. Every property carries a `description` that is also the message a caller gets
 * when the property is wrong (messages never quote what was sent).
 */

/** The payment types whose direction is fixed for every partner: HQ cannot set one. */
const builtInPaymentTypes = [...BUILT_IN_PAYMENT_DIRECTIONS.keys()];

/** No control characters: the contract's set (schemas/common.schema.json), C0, DEL and C1. */
const controlFree = '^[^\\u0000-\\u001F\\u007F-\\u009F]+$';

const id = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: controlFree,
  description: 'must be 1 to 128 characters without control characters',
};
/**
 * A store id HQ registers is a path segment of the store's routes (`daily-close/{store_id}/…`).
 * Clients resolve the segments `.` and `..` away before a request is sent, and a route reads the
 * text `%2F` in a segment as an escaped `/` (`routeStoreId`): no route could name such a store.
 */
const unroutableStoreId = { anyOf: [{ enum: ['.', '..'] }, { pattern: '%2[Ff]' }] };
const storeId = {
  ...id,
  not: unroutableStoreId,
  description:
    'must be 1 to 128 characters without control characters, not "." or "..", and not holding the text "%2F" (a URL cannot carry them in a path segment)',
};
/**
 * A store id being registered must also be one a partner can send: the contract's identifier rule
 * (schemas/common.schema.json, read from there so it is stated once). An id with a space at an end,
 * say, would give the partner a store none of its requests could name.
 */
const contractIdentifier = (
  JSON.parse(readFileSync(path.join(findProjectRoot(), 'schemas', 'common.schema.json'), 'utf8')) as {
    $defs: { identifier: { minLength: number; maxLength: number; pattern: string } };
  }
).$defs.identifier;
const registeredStoreId = {
  type: 'string',
  minLength: contractIdentifier.minLength,
  maxLength: contractIdentifier.maxLength,
  pattern: contractIdentifier.pattern,
  not: unroutableStoreId,
  description:
    'must be an identifier as partners send it: 1 to 128 characters, no control or invisible format characters, no whitespace at either end, not "." or "..", and not holding the text "%2F" (read as an escaped "/" in a URL)',
};
/** Every business date of an HQ route is also held to the window pushes are (requireDateRange). */
const date = { type: 'string', format: 'date', description: `must be a calendar date YYYY-MM-DD ${businessDateWindowText}` };
const paging = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: hqLimits.pageMax,
    default: hqLimits.pageDefault,
    description: `must be a whole number from 1 to ${hqLimits.pageMax}`,
  },
  continuation: { type: 'string', minLength: 1, maxLength: 2048, description: 'must be the continuation of the previous page, unchanged' },
} as const;

/** One key of the sales route's group_by (SalesQuery's group keys). */
const groupKey = '(partner|store|standard_type|day)';

/**
 * A query string's schema. Its property names, required names and enums stay in its type, where
 * test/hq/http/hqSchemas.test.ts compares them with `QueryTypes`.
 */
const query = <const P extends Record<string, object>, const R extends readonly (keyof P & string)[] = []>(
  properties: P,
  required?: R,
) => ({
  type: 'object',
  additionalProperties: false,
  required: required ?? [],
  properties,
});

export const querySchemas = {
  none: query({}),
  page: query({ ...paging }),
  storeDays: query(
    {
      from: date,
      to: date,
      partner_id: id,
      status: {
        enum: ['NOT_RECEIVED', 'RECEIVED', 'MATCHED', 'MISMATCHED'],
        description: 'must be NOT_RECEIVED, RECEIVED, MATCHED or MISMATCHED',
      },
      overdue: { type: 'boolean', description: 'must be true or false' },
      ...paging,
    },
    ['from', 'to'],
  ),
  sales: query(
    {
      from: date,
      to: date,
      group_by: {
        type: 'string',
        pattern: `^${groupKey}(,${groupKey})*$`,
        description: 'must be one or more of partner, store, standard_type, day, comma-separated',
      },
      partner_id: id,
      ...paging,
    },
    ['from', 'to', 'group_by'],
  ),
  unmapped: query({ partner_id: id, ...paging }),
  batches: query({ state: { enum: ['pending', 'failed'], description: 'must be pending or failed' }, partner_id: id, ...paging }, [
    'state',
  ]),
  webhookFailures: query({
    partner_id: id,
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: maxWebhookFailures,
      default: defaultWebhookFailures,
      description: `must be a whole number from 1 to ${maxWebhookFailures}`,
    },
  }),
} as const;

/** The path parameters of HQ routes; a service checks each (a date's form, an id's existence). */
export const pathParameterSchemas = {
  partner_id: id,
  store_id: storeId,
  key_id: id,
  business_date: date,
} as const;

export const bodySchemas = {
  empty: { type: 'object', additionalProperties: false, properties: {}, description: 'must be an empty object or no body at all' },
  registerStores: {
    type: 'object',
    additionalProperties: false,
    required: ['store_ids'],
    properties: {
      store_ids: {
        type: 'array',
        minItems: 1,
        maxItems: hqLimits.maxStoresPerRegistration,
        items: registeredStoreId,
        description: `must hold 1 to ${hqLimits.maxStoresPerRegistration} store ids`,
      },
    },
  },
  paymentDirection: {
    type: 'object',
    additionalProperties: false,
    required: ['payment_type', 'direction'],
    properties: {
      payment_type: {
        type: 'string',
        minLength: 1,
        maxLength: 50,
        pattern: controlFree,
        // A built-in code's direction is fixed for every partner: a stored one would be listed and
        // shown, yet count for nothing.
        not: { enum: builtInPaymentTypes },
        description: `must be 1 to 50 characters without control characters, and not a built-in payment type (${builtInPaymentTypes.join(', ')}), whose direction is fixed`,
      },
      direction: { enum: [1, -1, 0], description: 'must be the number 1, -1 or 0' },
    },
  },
} as const;

export type QueryName = keyof typeof querySchemas;
export type BodyName = keyof typeof bodySchemas;

export interface PageQuery {
  readonly limit: number;
  readonly continuation?: string;
}

/** What each query schema lets through (ajv has coerced numbers and booleans and filled defaults). */
export interface QueryTypes {
  none: Record<string, never>;
  page: PageQuery;
  storeDays: PageQuery & {
    readonly from: string;
    readonly to: string;
    readonly partner_id?: string;
    readonly status?: 'NOT_RECEIVED' | 'RECEIVED' | 'MATCHED' | 'MISMATCHED';
    readonly overdue?: boolean;
  };
  sales: PageQuery & { readonly from: string; readonly to: string; readonly group_by: string; readonly partner_id?: string };
  unmapped: PageQuery & { readonly partner_id?: string };
  batches: PageQuery & { readonly state: 'pending' | 'failed'; readonly partner_id?: string };
  webhookFailures: { readonly limit: number; readonly partner_id?: string };
}

export interface BodyTypes {
  empty: Record<string, never>;
  registerStores: { readonly store_ids: string[] };
  paymentDirection: { readonly payment_type: string; readonly direction: 1 | -1 | 0 };
}

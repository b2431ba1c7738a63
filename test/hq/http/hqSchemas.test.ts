/**
 * `QueryTypes` (what an HQ endpoint reads from `hq.validator.query`) is written by hand beside the
 * query schemas ajv enforces. These checks are types: a drift fails `npm run typecheck`, which
 * covers this file.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { QueryName, QueryTypes, querySchemas } from '../../../src/hq/http/hqSchemas.js';

type Properties<N extends QueryName> = (typeof querySchemas)[N]['properties'];

/** What a validated query always holds: the schema's required properties and those it fills in from a default. */
type SchemaRequired<N extends QueryName> =
  | (typeof querySchemas)[N]['required'][number]
  | { [K in keyof Properties<N>]: Properties<N>[K] extends { default: unknown } ? K : never }[keyof Properties<N>];

/** The property names of a type (none for `Record<string, never>`, the type of a query without parameters). */
type Names<T> = string extends keyof T ? never : keyof T;
type RequiredNames<T> = string extends keyof T ? never : { [K in keyof T]-?: T extends Record<K, unknown> ? K : never }[keyof T];

/** The values of each property the schema lists with an enum, and the ones the type allows. */
type SchemaEnum<N extends QueryName, K> = K extends keyof Properties<N>
  ? Properties<N>[K] extends { enum: readonly (infer V)[] }
    ? V
    : never
  : never;
type TypeValues<N extends QueryName, K> = K extends keyof QueryTypes[N] ? Exclude<QueryTypes[N][K], undefined> : never;
type EnumNames<N extends QueryName> = {
  [K in keyof Properties<N>]: Properties<N>[K] extends { enum: readonly unknown[] } ? K : never;
}[keyof Properties<N>];

/**
 * How a query's type and its schema differ, each part in a tuple so that the compiler's message
 * names the properties (`never` when none).
 */
interface Drift<N extends QueryName> {
  onlyInSchema: [Exclude<keyof Properties<N>, Names<QueryTypes[N]>>];
  onlyInType: [Exclude<Names<QueryTypes[N]>, keyof Properties<N>>];
  requiredOnlyInSchema: [Exclude<SchemaRequired<N>, RequiredNames<QueryTypes[N]>>];
  requiredOnlyInType: [Exclude<RequiredNames<QueryTypes[N]>, SchemaRequired<N>>];
  otherValues: [
    {
      [K in EnumNames<N>]: [SchemaEnum<N, K>] extends [TypeValues<N, K>] ? ([TypeValues<N, K>] extends [SchemaEnum<N, K>] ? never : K) : K;
    }[EnumNames<N>],
  ];
}

interface Agreed {
  onlyInSchema: [never];
  onlyInType: [never];
  requiredOnlyInSchema: [never];
  requiredOnlyInType: [never];
  otherValues: [never];
}

/**
 * Compiles only when every query agrees. The compiler's error names the query and what differs,
 * e.g. `Types of property 'storeDays' are incompatible. Types of property 'onlyInSchema' are
 * incompatible. Type '["overdue"]' is not assignable to type '[never]'`.
 */
type Agree<D extends Record<QueryName, Agreed>> = D;

describe('the HQ query types', () => {
  it('name the properties of their schemas, required where the schema requires or defaults them, with the same enums', () => {
    expectTypeOf<Agree<{ [N in QueryName]: Drift<N> }>>().toEqualTypeOf<Record<QueryName, Agreed>>();
  });
});

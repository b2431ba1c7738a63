/**
 * The request body types the service is written against (src/domain/model/payloads.ts, by hand) and
 * the ones generated from schemas/ for the partner kit (packages/partner-kit/src/contractTypes.ts,
 * kept in step with the schemas by test/partner-kit/contractTypes.test.ts) describe the same
 * bodies. The checks are types: a drift fails `npm run typecheck`, which covers this file.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as generated from '../../../packages/partner-kit/src/contractTypes.js';
import type * as written from '../../../src/domain/model/payloads.js';

/**
 * How a hand-written type and its generated counterpart differ: each must be assignable to the
 * other (same property types, same required properties) and name the same properties (an optional
 * property on one side only would pass both assignments).
 */
interface Drift<Written, Generated> {
  writtenIsGenerated: [Written] extends [Generated] ? true : false;
  generatedIsWritten: [Generated] extends [Written] ? true : false;
  /** In a tuple, so that the error message names the properties (`never` when none). */
  onlyWritten: [Exclude<Extract<keyof Written, string>, keyof Generated>];
  onlyGenerated: [Exclude<Extract<keyof Generated, string>, keyof Written>];
}

interface Agreed {
  writtenIsGenerated: true;
  generatedIsWritten: true;
  onlyWritten: [never];
  onlyGenerated: [never];
}

/**
 * Compiles only for a drift that is none. The compiler's error names what differs, e.g. `Types of
 * property 'onlyWritten' are incompatible. Type '["payment_note"]' is not assignable to type '[never]'`.
 */
type Agree<D extends Agreed> = D;

describe('the hand-written request body types', () => {
  it('agree with the types generated from the schemas, body by body and part by part', () => {
    expectTypeOf<Agree<Drift<written.TradeRecordBatch, generated.TradeRecordsBody>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.TradeRecord, generated.TradeRecord>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.TradeItem, generated.TradeItem>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.TradeModifier, generated.TradeModifier>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.Payment, generated.Payment>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.TaxLine, generated.TaxLine>>>().toEqualTypeOf<Agreed>();

    expectTypeOf<Agree<Drift<written.DailyClose, generated.DailyCloseBody>>>().toEqualTypeOf<Agreed>();

    expectTypeOf<Agree<Drift<written.StoreBatch, generated.StoresBody>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.Store, generated.Store>>>().toEqualTypeOf<Agreed>();

    expectTypeOf<Agree<Drift<written.ProductBatch, generated.ProductsBody>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.Product, generated.Product>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.ComboComponent, generated.ComboComponent>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.ModifierGroup, generated.ModifierGroup>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.ModifierOption, generated.ModifierOption>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.LocalizedText, generated.LocalizedText>>>().toEqualTypeOf<Agreed>();

    expectTypeOf<Agree<Drift<written.MappingBatch, generated.MappingsBody>>>().toEqualTypeOf<Agreed>();
    expectTypeOf<Agree<Drift<written.MappingEntry, generated.MappingEntry>>>().toEqualTypeOf<Agreed>();
  });
});

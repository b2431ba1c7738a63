import { describe, expect, it } from 'vitest';
import { checkProductBatch } from '../../../src/domain/validation/checkProductBatch.js';
import type { ProductBatch } from '../../../src/domain/model/payloads.js';
import { buildProductBatch } from '../../fixtures/masterDataFixtures.js';

function batch(change: (b: ProductBatch) => void): ProductBatch {
  const b = buildProductBatch();
  change(b);
  return b;
}

describe('checkProductBatch', () => {
  it('accepts the fixture, and an empty products list with modifier groups', () => {
    expect(checkProductBatch(buildProductBatch())).toEqual([]);
    expect(checkProductBatch(batch((b) => (b.products = [])))).toEqual([]);
  });

  it('rejects a (product_id, store_id) pair repeated in the batch; a missing store_id equals null', () => {
    expect(checkProductBatch(batch((b) => b.products.push({ ...b.products[3]!, store_id: null })))).toEqual([
      { path: '/products/5/product_id', message: 'duplicates the product_id and store_id of product 3 in this batch' },
    ]);
    expect(checkProductBatch(batch((b) => b.products.push({ ...b.products[3]!, store_id: 'LAX-0001' })))).toEqual([]);
  });

  it('requires the currency’s decimal places on unit_price and a known currency', () => {
    expect(checkProductBatch(batch((b) => (b.products[1]!.unit_price = '5.5')))).toEqual([
      { path: '/products/1/unit_price', message: 'must have exactly 2 decimal places in this currency' },
    ]);
    expect(checkProductBatch(batch((b) => (b.products[1]!.currency = 'QQQ')))).toContainEqual({
      path: '/products/1/currency',
      message: 'must be an active ISO 4217 currency code',
    });
  });

  it('checks price_delta against the products’ single currency', () => {
    expect(checkProductBatch(batch((b) => (b.modifier_groups![1]!.options[1]!.price_delta = '0.7')))).toEqual([
      { path: '/modifier_groups/1/options/1/price_delta', message: 'must have exactly 2 decimal places in this currency' },
    ]);
    // Without products the currency is unknown: only the schema's format applies.
    expect(
      checkProductBatch(
        batch((b) => {
          b.products = [];
          b.modifier_groups![1]!.options[1]!.price_delta = '0.7';
        }),
      ),
    ).toEqual([]);
  });

  it('checks price_delta against the currency of the products that list its group', () => {
    // A JPY product lists MG-BURGER-OPTIONS: its options need 0 places; MG-COMBO-DRINK stays USD.
    const mixed = (change: (b: ProductBatch) => void) =>
      batch((b) => {
        b.products.push({ ...b.products[1]!, product_id: 'P-TERIYAKI', currency: 'JPY', unit_price: '650' });
        b.products[1]!.modifier_group_ids = [];
        change(b);
      });
    expect(checkProductBatch(mixed(() => undefined))).toEqual([
      { path: '/modifier_groups/1/options/0/price_delta', message: 'must have no decimal places in this currency' },
      { path: '/modifier_groups/1/options/1/price_delta', message: 'must have no decimal places in this currency' },
    ]);
    expect(
      checkProductBatch(
        mixed((b) => {
          b.modifier_groups![1]!.options[0]!.price_delta = '0';
          b.modifier_groups![1]!.options[1]!.price_delta = '80';
          b.modifier_groups![0]!.options[1]!.price_delta = '0.5';
        }),
      ),
    ).toEqual([{ path: '/modifier_groups/0/options/1/price_delta', message: 'must have exactly 2 decimal places in this currency' }]);
    // A group listed by products of two currencies, or by none in a two-currency batch: no one currency is right.
    expect(checkProductBatch(mixed((b) => (b.products[1]!.modifier_group_ids = ['MG-BURGER-OPTIONS'])))).toEqual([]);
    expect(checkProductBatch(mixed((b) => (b.products[5]!.modifier_group_ids = [])))).toEqual([]);
  });

  it('requires substitute_group_id when is_substitutable is true', () => {
    expect(checkProductBatch(batch((b) => delete b.products[0]!.combo_components![2]!.substitute_group_id))).toEqual([
      { path: '/products/0/combo_components/2/substitute_group_id', message: 'is required when is_substitutable is true' },
    ]);
  });

  it('allows combo_components only on COMBO products (an empty list anywhere)', () => {
    expect(
      checkProductBatch(batch((b) => (b.products[1]!.combo_components = [{ product_id: 'P-X', quantity: '1', is_substitutable: false }]))),
    ).toEqual([{ path: '/products/1/combo_components', message: 'is allowed only on products of product_type COMBO' }]);
    expect(checkProductBatch(batch((b) => (b.products[1]!.combo_components = [])))).toEqual([]);
  });

  it('requires localized texts with at least one well-formed locale key', () => {
    expect(checkProductBatch(batch((b) => (b.products[2]!.name = {})))).toEqual([
      { path: '/products/2/name', message: 'must hold at least one locale' },
    ]);
    expect(checkProductBatch(batch((b) => (b.products[0]!.category_name = { 'en-US-u-': 'x' })))).toEqual([
      { path: '/products/0/category_name', message: 'every key must be a well-formed BCP 47 locale tag such as en-US' },
    ]);
    expect(checkProductBatch(batch((b) => (b.modifier_groups![0]!.options[0]!.name = { zh_TW: 'x' })))[0]?.path).toBe(
      '/modifier_groups/0/options/0/name',
    );
  });

  it('checks modifier groups: unique group_id, max_select >= min_select, unique option_id, at least one option', () => {
    expect(checkProductBatch(batch((b) => (b.modifier_groups![1]!.group_id = 'MG-COMBO-DRINK')))).toEqual([
      { path: '/modifier_groups/1/group_id', message: 'duplicates the group_id of modifier group 0 in this batch' },
    ]);
    expect(checkProductBatch(batch((b) => (b.modifier_groups![0]!.max_select = 0)))).toEqual([
      { path: '/modifier_groups/0/max_select', message: 'must be at least min_select' },
    ]);
    expect(checkProductBatch(batch((b) => (b.modifier_groups![1]!.min_select = 3)))).toEqual([]);
    expect(checkProductBatch(batch((b) => (b.modifier_groups![1]!.options[1]!.option_id = 'OPT-NO-ONION')))).toEqual([
      { path: '/modifier_groups/1/options/1/option_id', message: 'duplicates the option_id of option 0 of this group' },
    ]);
    expect(checkProductBatch(batch((b) => (b.modifier_groups![1]!.options = [])))).toEqual([
      { path: '/modifier_groups/1/options', message: 'must hold at least 1 option' },
    ]);
  });

  it('spares a valid EAN-13 in sku even when it passes Luhn under a Visa prefix', () => {
    // 4000000000006 is a valid EAN-13 and also Luhn-valid with a Visa prefix.
    expect(checkProductBatch(batch((b) => (b.products[1]!.sku = '4000000000006')))).toEqual([]);
    expect(checkProductBatch(batch((b) => (b.products[1]!.sku = '4111111111111111')))).toEqual([
      { path: '/products/1/sku', message: 'appears to hold a payment card number, which must never be sent' },
    ]);
  });
});

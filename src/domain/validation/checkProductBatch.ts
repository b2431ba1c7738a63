import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { minorUnitDigits } from '../currency/minorUnitDigits.js';
import type { LocalizedText, ModifierGroup, Product, ProductBatch } from '../model/payloads.js';
import { checkAmountPlaces } from './checkAmountPlaces.js';
import { findSensitiveData } from './findSensitiveData.js';
import { isLocaleTag } from './isLocaleTag.js';

/**
 * The rules of a PUT /products body that its schema cannot express (contract §2.4, §4.6):
 * - a product is unique by (product_id, store_id) in the batch, a missing store_id being the
 *   same as null (shared by all stores);
 * - unit_price has the decimal places of the product's currency, an ISO 4217 code;
 * - substitute_group_id is present when is_substitutable is true;
 * - combo_components are listed only on COMBO products (an empty list is tolerated anywhere);
 * - localized texts have at least one key and every key is a well-formed locale tag;
 * - modifier groups: unique group_id, max_select ≥ min_select, unique option_id within a group.
 *   Modifier groups carry no currency: an option's price_delta is checked against the currency
 *   of the batch's products that list the group in modifier_group_ids when they share one; a
 *   group no product of the batch lists, against the currency of all the batch's products when
 *   they share one; otherwise (a group-only upload, a group used in several currencies) only by
 *   the schema, because no one currency can be right.
 */
export function checkProductBatch(batch: ProductBatch): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  const firstIndex = new Map<string, number>();
  const currencies = new Set<string>();
  const currenciesOfGroup = new Map<string, Set<string>>();
  batch.products.forEach((product, index) => {
    const path = `/products/${index}`;
    const key = JSON.stringify([product.product_id, product.store_id ?? null]);
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    else problems.push({ path: `${path}/product_id`, message: `duplicates the product_id and store_id of product ${first} in this batch` });
    checkProduct(product, path, problems);
    currencies.add(product.currency);
    for (const groupId of product.modifier_group_ids ?? []) {
      const ofGroup = currenciesOfGroup.get(groupId) ?? new Set<string>();
      ofGroup.add(product.currency);
      currenciesOfGroup.set(groupId, ofGroup);
    }
  });

  const firstGroupIndex = new Map<string, number>();
  batch.modifier_groups?.forEach((group, index) => {
    const path = `/modifier_groups/${index}`;
    const first = firstGroupIndex.get(group.group_id);
    if (first === undefined) firstGroupIndex.set(group.group_id, index);
    else problems.push({ path: `${path}/group_id`, message: `duplicates the group_id of modifier group ${first} in this batch` });
    checkModifierGroup(group, path, digitsOfOnly(currenciesOfGroup.get(group.group_id) ?? currencies), problems);
  });

  for (const problem of findSensitiveData(batch)) problems.push(problem);
  return problems;
}

/** The minor-unit digits of the one currency in the set; undefined when it holds none or several. */
function digitsOfOnly(currencies: ReadonlySet<string>): number | undefined {
  if (currencies.size !== 1) return undefined;
  const [only] = currencies;
  return only === undefined ? undefined : minorUnitDigits(only);
}

function checkProduct(product: Product, path: string, problems: ProblemDetail[]): void {
  const digits = minorUnitDigits(product.currency);
  if (digits === undefined) problems.push({ path: `${path}/currency`, message: 'must be an active ISO 4217 currency code' });
  else checkAmountPlaces(product, ['unit_price'], digits, path, problems);
  checkLocalizedText(product.name, `${path}/name`, problems);
  if (product.category_name !== undefined) checkLocalizedText(product.category_name, `${path}/category_name`, problems);
  const components = product.combo_components ?? [];
  if (components.length > 0 && product.product_type !== 'COMBO') {
    problems.push({ path: `${path}/combo_components`, message: 'is allowed only on products of product_type COMBO' });
  }
  components.forEach((component, c) => {
    if (component.is_substitutable && component.substitute_group_id === undefined) {
      problems.push({
        path: `${path}/combo_components/${c}/substitute_group_id`,
        message: 'is required when is_substitutable is true',
      });
    }
  });
}

function checkModifierGroup(group: ModifierGroup, path: string, digits: number | undefined, problems: ProblemDetail[]): void {
  checkLocalizedText(group.name, `${path}/name`, problems);
  if (group.max_select < group.min_select) {
    problems.push({ path: `${path}/max_select`, message: 'must be at least min_select' });
  }
  if (group.options.length === 0) problems.push({ path: `${path}/options`, message: 'must hold at least 1 option' });
  const firstOption = new Map<string, number>();
  group.options.forEach((option, o) => {
    const optionPath = `${path}/options/${o}`;
    const first = firstOption.get(option.option_id);
    if (first === undefined) firstOption.set(option.option_id, o);
    else problems.push({ path: `${optionPath}/option_id`, message: `duplicates the option_id of option ${first} of this group` });
    checkLocalizedText(option.name, `${optionPath}/name`, problems);
    if (digits !== undefined) checkAmountPlaces(option, ['price_delta'], digits, optionPath, problems);
  });
}

function checkLocalizedText(text: LocalizedText, path: string, problems: ProblemDetail[]): void {
  const keys = Object.keys(text);
  if (keys.length === 0) {
    problems.push({ path, message: 'must hold at least one locale' });
    return;
  }
  if (keys.some((key) => !isLocaleTag(key))) {
    problems.push({ path, message: 'every key must be a well-formed BCP 47 locale tag such as en-US' });
  }
}

import { describe, expect, it } from 'vitest';
import { findSensitiveData } from '../../../src/domain/validation/findSensitiveData.js';
import { maxJsonDepth } from '../../../src/bodyParsing/maxJsonDepth.js';
import { parseJsonBody } from '../../../src/bodyParsing/parseJsonBody.js';
import { buildTradeRecordBatch } from '../../fixtures/tradeRecordFixtures.js';
import { stringMatching } from '../../support/matchers.js';

describe('findSensitiveData', () => {
  it('takes a UUID for what it is, even one whose digit groups join into a valid card number', () => {
    const body = { batch_id: '03ca4a64-4974-4491-8752-7a63e257d230', note: '4111 1111 1111 1111' };
    expect(findSensitiveData(body)).toEqual([
      { path: '/note', message: 'appears to hold a payment card number, which must never be sent' },
    ]);
  });

  it('finds nothing in the fixtures', () => {
    expect(findSensitiveData(buildTradeRecordBatch({ recordCount: 20 }))).toEqual([]);
    expect(findSensitiveData(buildTradeRecordBatch({ currency: 'JPY', recordCount: 20 }))).toEqual([]);
  });

  it('finds a card number in any string field, with an escaped JSON Pointer and without the digits', () => {
    const body = { a: [{ 'x/y~z': 'paid with 5555-5555-5555-4444' }], b: { c: ['ok', '378282246310005'] } };
    const problems = findSensitiveData(body);
    expect(problems.map((p) => p.path)).toEqual(['/a/0/x~1y~0z', '/b/c/1']);
    expect(JSON.stringify(problems)).not.toMatch(/5555|3782/);
  });

  it('ignores card_last4 and non-string values', () => {
    expect(findSensitiveData({ card_last4: '4111111111111111', n: 4111111111111111, t: true, z: null })).toEqual([]);
  });

  it('applies the member_id rule only to member_id', () => {
    expect(findSensitiveData({ member_id: 'alice@example.com', note: 'alice@example.com' })).toEqual([
      { path: '/member_id', message: stringMatching(/not an e-mail address/) },
    ]);
    expect(findSensitiveData({ member_id: '4111111111111111' })[0]?.message).toMatch(/not a payment card number/);
    expect(findSensitiveData({ member_id: 'M-000123' })).toEqual([]);
  });

  it('reports every problem in document order, with the path of each through objects, arrays and empty containers', () => {
    const card = '4111 1111 1111 1111';
    const body = {
      z: { empty: {}, list: [], inner: [[card], { member_id: '+81 90 1234 5678' }] },
      a: card,
      items: [{ card_last4: card, note: card }, 'short', card],
    };
    expect(findSensitiveData(body).map((p) => p.path)).toEqual(['/z/inner/0/0', '/z/inner/1/member_id', '/a', '/items/0/note', '/items/2']);
  });

  it('checks a body that is itself a string', () => {
    expect(findSensitiveData('4111 1111 1111 1111')).toEqual([{ path: '', message: stringMatching(/payment card number/) }]);
  });

  it('walks a body nested as deeply as the parser lets through', () => {
    const arrays = maxJsonDepth - 1;
    const parsed = parseJsonBody(Buffer.from(`{"d":${'['.repeat(arrays)}"4111111111111111"${']'.repeat(arrays)}}`));
    if (!parsed.ok) throw new Error('the body at the depth limit did not parse');
    expect(findSensitiveData(parsed.value)).toEqual([{ path: '/d' + '/0'.repeat(arrays), message: stringMatching(/payment card number/) }]);
  });
});

import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { classifyMemberId } from './classifyMemberId.js';
import { containsCardNumber } from './containsCardNumber.js';
import { escapePointerToken } from './jsonPointer.js';

const kindLabel = {
  email: 'an e-mail address',
  phone: 'a phone number',
  card: 'a payment card number',
} as const;

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Looks through every string of a parsed body for data the service must not receive: a payment
 * card number in any field but `card_last4`, and a member_id that is an e-mail address, phone
 * number or card number. The walk uses an explicit stack, so any depth is safe; each problem
 * names the path and never repeats the value.
 */
export function findSensitiveData(body: unknown): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  const stack: Node[] = [{ value: body, parent: undefined, token: '' }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const value = node.value;
    if (typeof value === 'string') {
      const key = node.token;
      if (key === 'card_last4') continue;
      // A UUID (batch_id and other generated ids) may start with enough decimal digits to pass the
      // card checks once its hyphens are joined; in its canonical shape it is never a card number.
      if (uuidShape.test(value)) continue;
      if (key === 'member_id') {
        const kind = classifyMemberId(value);
        if (kind !== undefined) {
          problems.push({
            path: pathOf(node),
            message: `must be an internal member id, not ${kindLabel[kind]}; use a sequence number or a salted hash`,
          });
        }
        continue;
      }
      if (containsCardNumber(value)) {
        problems.push({ path: pathOf(node), message: 'appears to hold a payment card number, which must never be sent' });
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: node, token: i });
    } else if (value !== null && typeof value === 'object') {
      for (const name of Object.keys(value).reverse()) {
        stack.push({ value: (value as Record<string, unknown>)[name], parent: node, token: name });
      }
    }
  }
  return problems;
}

/** A value met during the walk; its path is built only when a problem is found there. */
interface Node {
  readonly value: unknown;
  readonly parent: Node | undefined;
  readonly token: string | number;
}

function pathOf(node: Node): string {
  const tokens: (string | number)[] = [];
  let at = node;
  while (at.parent !== undefined) {
    tokens.push(at.token);
    at = at.parent;
  }
  return tokens
    .reverse()
    .map((token) => '/' + escapePointerToken(token))
    .join('');
}

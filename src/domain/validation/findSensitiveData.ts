import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { classifyMemberId } from './classifyMemberId.js';
import { containsCardNumber } from './containsCardNumber.js';
import { escapePointerToken } from './jsonPointer.js';
import { isUuidShaped } from './isUuidShaped.js';

const kindLabel = {
  email: 'an e-mail address',
  phone: 'a phone number',
  card: 'a payment card number',
} as const;

/** Shortest text {@link containsCardNumber} can find a card number in. */
const shortestCardText = 13;

/**
 * Looks through every string of a parsed body for data the service must not receive: a payment
 * card number in any field but `card_last4`, and a member_id that is an e-mail address, phone
 * number or card number. The walk keeps an explicit stack of the arrays and objects it is in, so
 * any depth is safe, and allocates nothing per value; each problem names the path and never
 * repeats the value.
 */
export function findSensitiveData(body: unknown): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  const stack: Frame[] = [];
  let value = body;
  let token: string | number = '';
  for (;;) {
    if (typeof value === 'string') {
      const problem = sensitiveStringProblem(value, token);
      if (problem !== undefined) problems.push({ path: pathOf(stack, token), message: problem });
    } else if (Array.isArray(value)) {
      stack.push({ array: value as unknown[], object: undefined, names: undefined, next: 0, token });
    } else if (value !== null && typeof value === 'object') {
      stack.push({ array: undefined, object: value as Record<string, unknown>, names: Object.keys(value), next: 0, token });
    }
    // The next value: the next item of the innermost container that has one left.
    let frame = stack.at(-1);
    while (frame !== undefined && frame.next >= (frame.names ?? frame.array ?? []).length) {
      stack.pop();
      frame = stack.at(-1);
    }
    if (frame === undefined) return problems;
    const i = frame.next++;
    if (frame.names !== undefined && frame.object !== undefined) {
      token = frame.names[i] ?? '';
      value = frame.object[token];
    } else {
      token = i;
      value = frame.array?.[i];
    }
  }
}

/** What is wrong with a string met under `token` (its property name or array index); undefined when nothing. */
function sensitiveStringProblem(value: string, token: string | number): string | undefined {
  if (token === 'member_id') {
    // A UUID (batch_id and other generated ids) may start with enough decimal digits to pass the
    // card checks once its hyphens are joined; in its canonical shape it is never a card number.
    if (isUuidShaped(value)) return undefined;
    const kind = classifyMemberId(value);
    return kind === undefined ? undefined : `must be an internal member id, not ${kindLabel[kind]}; use a sequence number or a salted hash`;
  }
  if (token === 'card_last4' || value.length < shortestCardText || isUuidShaped(value)) return undefined;
  return containsCardNumber(value) ? 'appears to hold a payment card number, which must never be sent' : undefined;
}

/** An array or object the walk is in, how far it got, and how the walk reached it from its parent. */
interface Frame {
  readonly array: readonly unknown[] | undefined;
  readonly object: Readonly<Record<string, unknown>> | undefined;
  /** The property names of the object, in order; undefined for an array. */
  readonly names: readonly string[] | undefined;
  next: number;
  readonly token: string | number;
}

/** The path of a value met under `token` inside the containers of `stack` (the first is the body). */
function pathOf(stack: readonly Frame[], token: string | number): string {
  if (stack.length === 0) return '';
  let path = '';
  for (let level = 1; level < stack.length; level++) path += '/' + escapePointerToken(stack[level]?.token ?? '');
  return path + '/' + escapePointerToken(token);
}

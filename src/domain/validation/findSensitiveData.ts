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
 * number or card number. Each problem names the path and never repeats the value.
 *
 * The walk recurses: every body reaching it was parsed by `parseJsonBody`, which refuses nesting
 * deeper than 32 levels. It reads objects with `for…in` (JSON.parse builds plain objects, whose
 * prototype has no enumerable property) and keeps only the tokens of the containers it is in, so
 * it allocates no array of names per object; a push walks thousands of them (bench/ROUNDS.md,
 * round 20).
 */
export function findSensitiveData(body: unknown): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  visit(body, '', [], problems);
  return problems;
}

/** Visits `value`, met under `token` inside the containers whose tokens `path` holds (the body's first). */
function visit(value: unknown, token: string | number, path: (string | number)[], problems: ProblemDetail[]): void {
  if (typeof value === 'string') {
    const problem = sensitiveStringProblem(value, token);
    if (problem !== undefined) problems.push({ path: pathOf(path, token), message: problem });
  } else if (Array.isArray(value)) {
    path.push(token);
    for (let i = 0; i < value.length; i++) visit(value[i], i, path, problems);
    path.pop();
  } else if (value !== null && typeof value === 'object') {
    path.push(token);
    for (const name in value) visit((value as Record<string, unknown>)[name], name, path, problems);
    path.pop();
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

/** The JSON Pointer of a value met under `token` inside the containers of `path` (the first is the body). */
function pathOf(path: readonly (string | number)[], token: string | number): string {
  if (path.length === 0) return '';
  let pointer = '';
  for (let level = 1; level < path.length; level++) pointer += '/' + escapePointerToken(path[level] ?? '');
  return pointer + '/' + escapePointerToken(token);
}

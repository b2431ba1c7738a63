/**
 * Edits of a body that its type does not allow (a string where a number belongs, a required field
 * left out): the tests of rejected bodies build a valid body, then break it at a JSON pointer.
 * Each edit returns a deep copy and leaves the original as it was.
 */

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function tokensOf(pointer: string): string[] {
  if (!pointer.startsWith('/')) throw new Error(`Not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The copy, and the container that holds the pointer's last token. */
function locate(body: object, pointer: string): { copy: Record<string, unknown>; parent: Container; last: string } {
  const copy = structuredClone(body) as Record<string, unknown>;
  const tokens = tokensOf(pointer);
  const last = tokens.pop();
  if (last === undefined) throw new Error('The pointer names the whole body.');
  let parent: unknown = copy;
  for (const token of tokens) {
    if (!isContainer(parent)) throw new Error(`${pointer}: nothing at ${token}`);
    parent = Array.isArray(parent) ? parent[Number(token)] : parent[token];
  }
  if (!isContainer(parent)) throw new Error(`${pointer}: the parent is not an object or array`);
  return { copy, parent, last };
}

/** A copy of `body` with the value at `pointer` set to `value`. */
export function withValueAt(body: object, pointer: string, value: unknown): Record<string, unknown> {
  const { copy, parent, last } = locate(body, pointer);
  if (Array.isArray(parent)) parent[Number(last)] = value;
  else parent[last] = value;
  return copy;
}

/** A copy of `body` without the member at `pointer` (an array element is removed, not left empty). */
export function withoutValueAt(body: object, pointer: string): Record<string, unknown> {
  const { copy, parent, last } = locate(body, pointer);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else Reflect.deleteProperty(parent, last);
  return copy;
}

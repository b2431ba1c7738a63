/**
 * The operator key lives in this tab's sessionStorage only: it is gone when the tab closes, never
 * written to localStorage, a cookie or the URL, and sign-out removes it.
 */
const storageKey = 'hq-console.operator-key';

export function readOperatorKey(): string | undefined {
  return sessionStorage.getItem(storageKey) ?? undefined;
}

export function saveOperatorKey(key: string): void {
  sessionStorage.setItem(storageKey, key);
}

export function clearOperatorKey(): void {
  sessionStorage.removeItem(storageKey);
}

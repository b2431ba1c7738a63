/** A promise and the function that settles it, for a test that opens a gate or notes an event by hand. */
export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

/** `Promise.withResolvers` without its rejection, which Node.js 20 lacks. */
export function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

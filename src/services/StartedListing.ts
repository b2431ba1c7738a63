/**
 * An async listing whose first step is taken when it is made, so that its first request goes out
 * before the caller awaits anything else; iterated once, like the listing it wraps. A caller that
 * will not iterate it after all must `close` it, which lets the listing stop what it started.
 */
export class StartedListing<T> implements AsyncIterable<T> {
  private readonly iterator: AsyncIterator<T>;
  private first: Promise<IteratorResult<T>> | undefined;

  constructor(source: AsyncIterable<T>) {
    this.iterator = source[Symbol.asyncIterator]();
    const first = this.iterator.next();
    // Met by whoever iterates; a listing closed unread must not report an unhandled rejection.
    first.catch(() => undefined);
    this.first = first;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const first = this.first;
        if (first === undefined) return this.iterator.next();
        this.first = undefined;
        return first;
      },
      return: async (value?: unknown) => {
        await this.close();
        return { done: true, value };
      },
    };
  }

  /** Stops the listing (a step under way is let finish first). */
  async close(): Promise<void> {
    const first = this.first;
    this.first = undefined;
    await first?.catch(() => undefined);
    await this.iterator.return?.();
  }
}

import { StorageError } from '../errors/StorageError.js';

/**
 * An error as a log line may show it: its class and the first line of its message (ours and
 * StorageError's never quote a request body or a key), and of a cause only its class, as SDK
 * messages may carry storage's answer.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  // A StorageError's message is ours (status and storage's code); other causes show their class only.
  const cause =
    error.cause instanceof StorageError
      ? ` (cause ${error.cause.message})`
      : error.cause instanceof Error
        ? ` (cause ${error.cause.name})`
        : '';
  return `${error.name}: ${error.message.split('\n')[0]?.slice(0, 300)}${cause}`;
}

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

/** Frames of a stack shown at most: where an unexpected error came from. */
const maxFrames = 12;

/**
 * The frames of an error's stack (`at function (file:line:column)`), one per line after a line break,
 * without the message lines the stack starts with: those may hold what `describeError` leaves out.
 * Empty when the error has no stack.
 */
export function stackFramesOf(error: unknown): string {
  if (!(error instanceof Error) || typeof error.stack !== 'string') return '';
  const frames = error.stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '))
    .slice(0, maxFrames);
  return frames.map((frame) => `\n    ${frame.slice(0, 300)}`).join('');
}

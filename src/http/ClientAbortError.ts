/**
 * The caller went away before its request body arrived (connection closed or reset mid-upload).
 * Nothing was stored; it is the client's doing, so it is logged at info level, not as a failure.
 */
export class ClientAbortError extends Error {
  override readonly name = 'ClientAbortError';

  constructor(options?: { cause?: unknown }) {
    super('The client closed the connection before the request body was read.', options);
  }
}

/**
 * The value of a body the service stored after it accepted it, or undefined when the bytes are not
 * JSON. The body passed every rule of {@link parseJsonBody} in force when it arrived; reading it
 * again with plain `JSON.parse` gives the value those rules saw, and a rule added since can never
 * make an accepted batch unreadable (nothing accepted is lost).
 */
export function parseStoredBody(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

import type { HttpRequest } from '@azure/functions';
import { ApiError } from '../errors/ApiError.js';
import { ClientAbortError } from './ClientAbortError.js';
import type { BodyAllowance } from './BodyBudget.js';
import { unsupportedJsonBody } from './unsupportedJsonBody.js';

/** A request body read into memory, and the share of the instance's body budget it holds. */
export interface ReadBody {
  readonly bytes: Uint8Array;
  /** Gives the body's bytes back to the budget; call once the push is done with them. */
  release(): void;
}

/** Bytes that make the body's head: enough for the envelope fields a client writes first. */
const headBytes = 1024;

/**
 * Reads a push body after the checks that need no reading: the media type must be JSON, in UTF-8,
 * uncompressed (415: `unsupportedJsonBody`) and a
 * declared Content-Length at most `maxBytes` (413). The body is read as a stream, so a chunked body
 * works and no more than `maxBytes` + one chunk is ever held: reading stops as soon as the body
 * grows past the limit (413). The stream is then left alone, not cancelled, so the host can drain
 * the rest and the client reads the answer. Every chunk is counted against the instance's budget,
 * through the caller's share of it (503 when either is spent).
 */
export async function readJsonBody(
  request: HttpRequest,
  maxBytes: number,
  budget: BodyAllowance,
  /** Called once with the first bytes (at least `headBytes`, or the whole body if shorter), while the rest still arrives. */
  onHead?: (head: Uint8Array) => void,
  /**
   * Aborted when the caller answers without the body (a 429 decided first): what the body holds of
   * the budget is given back at once, and nothing more is taken, whenever the stream settles.
   */
  abandon?: AbortSignal,
): Promise<ReadBody> {
  const unsupported = unsupportedJsonBody(request.headers);
  if (unsupported !== undefined) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', unsupported);
  const declaredText = request.headers.get('content-length');
  const declared = declaredText === null ? undefined : Number(declaredText);
  if (declared !== undefined && declared > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', tooLarge(maxBytes));

  let held = 0;
  const hold = (bytes: number): void => {
    budget.take(bytes);
    held += bytes;
  };
  const release = (): void => {
    budget.give(held);
    held = 0;
  };
  const chunks: Uint8Array[] = [];
  // The stream may never settle (a host that stops forwarding it), so the bytes are not kept waiting for it.
  const onAbandon = (): void => {
    release();
    chunks.length = 0;
  };
  abandon?.addEventListener('abort', onAbandon, { once: true });
  try {
    if (abandon?.aborted) throw new AbandonedRead();
    // A declared length is reserved before reading, so a body that cannot fit is refused at once.
    if (declared !== undefined && Number.isSafeInteger(declared) && declared > 0) hold(declared);
    let total = 0;
    const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = request.body?.getReader();
    if (reader) {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (abandon?.aborted) throw new AbandonedRead();
          if (done) break;
          total += value.byteLength;
          if (total > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', tooLarge(maxBytes));
          if (total > held) hold(total - held);
          chunks.push(value);
          if (onHead && total >= headBytes) {
            onHead(chunks.length === 1 ? value : Buffer.concat(chunks, total));
            onHead = undefined;
          }
        }
      } catch (error) {
        if (error instanceof ApiError || error instanceof AbandonedRead) throw error;
        // Reading fails only when the upload did not complete: the caller closed or reset the connection.
        throw new ClientAbortError({ cause: error });
      } finally {
        reader.releaseLock();
      }
    }
    const [only] = chunks;
    const bytes = chunks.length === 1 && only ? only : Buffer.concat(chunks, total);
    onHead?.(bytes);
    // A declared length larger than what arrived gives the difference back now.
    if (held > total) {
      budget.give(held - total);
      held = total;
    }
    return { bytes, release };
  } catch (error) {
    release();
    throw error;
  } finally {
    abandon?.removeEventListener('abort', onAbandon);
  }
}

/** The read of a body its request was answered without; only the caller that abandoned it sees it. */
class AbandonedRead extends Error {
  constructor() {
    super('The body was abandoned: the request was answered without it.');
    this.name = 'AbandonedRead';
  }
}

function tooLarge(maxBytes: number): string {
  return `The request body is larger than ${maxBytes} bytes.`;
}

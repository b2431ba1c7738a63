import type { BlobClient } from '@azure/storage-blob';
import { isNotFound } from './storageErrors.js';
import { toStorageError } from './translateStorageErrors.js';

/**
 * A blob's bytes in one request, or undefined when it does not exist. (`downloadToBuffer` asks for
 * the blob's size first: two round trips for every stored batch or fragment read.)
 */
export async function downloadIfExists(blob: BlobClient): Promise<Buffer | undefined> {
  let body: NodeJS.ReadableStream | undefined;
  let length: number | undefined;
  try {
    const response = await blob.download();
    body = response.readableStreamBody;
    length = response.contentLength;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  try {
    // The SDK's stream resumes a download cut off by the network (up to 5 times) on its own.
    for await (const chunk of body) chunks.push(chunk as Buffer);
  } catch (error) {
    throw toStorageError(error);
  }
  return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, length);
}

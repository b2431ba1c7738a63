import type http from 'node:http';
import type { HostTimeouts } from './HostTimeouts.js';
import type { RequestBodyStream } from './RequestBodyStream.js';

/** True for a request that carries no body: neither a length nor chunks were declared, or it has all been read. */
export function isBodyless(req: http.IncomingMessage): boolean {
  return req.readableEnded || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined);
}

/**
 * Cuts a connection whose body arrives slower than the minimum data rate once the grace period is
 * over. Returns the function that stops watching.
 */
export function watchBodyRate(
  req: http.IncomingMessage,
  body: RequestBodyStream,
  timeouts: HostTimeouts,
  onTooSlow: () => void,
): () => void {
  if (isBodyless(req)) return () => undefined;
  const started = Date.now();
  const timer = setInterval(() => {
    if (body.ended) {
      clearInterval(timer);
      return;
    }
    const elapsed = Date.now() - started;
    if (elapsed < timeouts.bodyGraceMs) return;
    if (body.receivedBytes < (timeouts.minBodyBytesPerSecond * elapsed) / 1000) {
      clearInterval(timer);
      onTooSlow();
    }
  }, 250);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}

import type http from 'node:http';
import type { HostTimeouts } from './HostTimeouts.js';

/**
 * After the answer, discards whatever body the client is still sending, without keeping it, so
 * that clients which write the whole body before reading (most do) see the answer. The connection
 * is cut once the drain goes on past the time or byte bound.
 */
export function discardBody(req: http.IncomingMessage, res: http.ServerResponse, timeouts: HostTimeouts): void {
  if (req.readableEnded) return;
  let discarded = 0;
  const cut = (): void => {
    cleanup();
    req.socket.destroy();
  };
  const timer = setTimeout(cut, timeouts.drainMs);
  timer.unref();
  const onData = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > timeouts.drainBytes) cut();
  };
  const cleanup = (): void => {
    clearTimeout(timer);
    req.off('data', onData);
  };
  req.on('data', onData);
  req.once('end', cleanup);
  req.once('close', cleanup);
  res.once('close', () => {
    if (req.readableEnded) cleanup();
  });
  req.resume();
}

import type http from 'node:http';

/** Largest amount of body the stream holds ahead of the reader before it stops reading the socket. */
const highWaterMarkBytes = 64 * 1024;

/**
 * The request body as the web stream a handler reads through `request.body`, pulled from the
 * socket as the handler reads (no more than 64 KiB ahead of it).
 *
 * In Azure with HTTP streams on, the library hands the handler a fetch `Request` whose body is the
 * proxied request itself. Here the body goes through this stream instead, so that a handler that
 * stops reading (a body over its limit) leaves the connection to the host: `detach()` ends the
 * stream's interest in the socket, and the host then drains or closes it. Cancelling the stream
 * never destroys the socket, which is what let a 413 be lost to a reset connection.
 */
export class RequestBodyStream {
  readonly stream: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #detached = false;
  #received = 0;
  #ended = false;

  constructor(req: http.IncomingMessage) {
    let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
    const onData = (chunk: Buffer): void => {
      this.#received += chunk.length;
      if (this.#detached || !controllerRef) return;
      controllerRef.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((controllerRef.desiredSize ?? 0) <= 0) req.pause();
    };
    req.on('data', onData);
    req.once('end', () => {
      this.#ended = true;
      if (!this.#detached) controllerRef?.close();
    });
    req.once('error', (error) => {
      if (!this.#detached) controllerRef?.error(error);
    });
    req.once('close', () => {
      // The connection went away before the body ended: the reader sees an error, not a short body.
      if (!this.#ended && !this.#detached) controllerRef?.error(new Error('The request body was cut off.'));
    });
    req.pause();
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          controllerRef = controller;
          this.#controller = controller;
          // Gone before this stream was made (while the host checked the key): 'close' has been
          // and will not come again, and a reader would otherwise wait for a body that never ends.
          if (req.destroyed && !req.complete) controller.error(new Error('The request body was cut off.'));
        },
        pull: () => {
          if (!this.#detached) req.resume();
        },
        cancel: () => {
          this.#detached = true;
        },
      },
      { highWaterMark: highWaterMarkBytes, size: (chunk) => chunk.byteLength },
    );
  }

  /** Bytes of body received from the socket so far. */
  get receivedBytes(): number {
    return this.#received;
  }

  /** Whether the client sent the whole body. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Stops handing chunks to the stream; what arrives after this is discarded. A read still waiting
   * (a handler that answered, or ran out of time, before the body arrived) fails at once instead of
   * waiting for ever, so whatever that read holds is let go.
   */
  detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    if (!this.#ended) {
      try {
        this.#controller?.error(new Error('The request was answered before its body arrived.'));
      } catch {
        // Already closed or errored: nothing waits on it.
      }
    }
  }
}

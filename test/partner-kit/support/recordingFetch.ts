/** One request as the client sent it. */
export interface RecordedCall {
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
}

/**
 * A fetch that notes every request's method, path and body before passing it on to the service,
 * or to `answer` when that gives a response (the network of a test: a refusal, a dropped call).
 */
export function recordingFetch(
  answer: (call: number, input: RequestInfo | URL, init?: RequestInit) => Promise<Response> | undefined = () => undefined,
): { calls: RecordedCall[]; send: typeof fetch } {
  const calls: RecordedCall[] = [];
  const send: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push({
      method: init?.method ?? 'GET',
      path: new URL(url).pathname,
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    return answer(calls.length, input, init) ?? fetch(input, init);
  };
  return { calls, send };
}

import type { PipelinePolicy } from '@azure/core-rest-pipeline';

/** How long storage may take: each try, and one call with all its retries. */
export interface StorageDeadlines {
  readonly tryTimeoutMs: number;
  readonly callDeadlineMs: number;
}

/**
 * A try that gets no answer in 10 s is abandoned and retried; a call still unanswered after 25 s
 * in all fails, and the request that made it gets a retryable 503 instead of hanging. Every write
 * of a push is safe to repeat, so a deadline that passes mid-push leaves a batch a retry completes.
 */
export const defaultStorageDeadlines: StorageDeadlines = Object.freeze({ tryTimeoutMs: 10_000, callDeadlineMs: 25_000 });

/**
 * Puts the call deadline on every storage request (one abort signal for all its tries) and, where
 * the client set none, the per-try timeout. Runs once per call, before the retry policy.
 */
export function storageDeadlinePolicy(deadlines: StorageDeadlines): PipelinePolicy {
  return {
    name: 'storage-call-deadline',
    async sendRequest(request, next) {
      const controller = new AbortController();
      const timer = setTimeout(() => {
        controller.abort();
      }, deadlines.callDeadlineMs);
      const caller = request.abortSignal;
      const passOn = (): void => {
        controller.abort();
      };
      if (caller?.aborted) controller.abort();
      else caller?.addEventListener('abort', passOn, { once: true });
      request.abortSignal = controller.signal;
      if (!request.timeout) request.timeout = deadlines.tryTimeoutMs;
      try {
        return await next(request);
      } finally {
        clearTimeout(timer);
        caller?.removeEventListener('abort', passOn);
      }
    },
  };
}

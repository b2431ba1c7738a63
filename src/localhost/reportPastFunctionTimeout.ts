import type { LocalHostLogger } from './LocalHostLogger.js';

/**
 * Watches a queue or timer invocation against host.json's `functionTimeout`. In Azure an invocation
 * of any trigger still running then makes the host restart the worker process, which ends every
 * invocation running in it. The local host cannot end a handler, so it says so at that moment, as
 * an error, and lets the run finish: a run that would be cut short in Azure does not pass unseen.
 * Returns the function that stops watching (call it when the run ends).
 */
export function reportPastFunctionTimeout(
  logger: LocalHostLogger,
  functionTimeoutMs: number,
  what: { readonly functionName: string; readonly invocationId: string },
): () => void {
  const timer = setTimeout(() => {
    logger.error(
      `Function ${what.functionName} (invocation ${what.invocationId}) is still running after functionTimeout ` +
        `(${String(functionTimeoutMs)} ms): in Azure the host restarts the worker here, ending every invocation in it.`,
    );
  }, functionTimeoutMs);
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
}

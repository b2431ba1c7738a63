import { StorageError, type StorageFailureKind } from '../errors/StorageError.js';

/** Network failures that say nothing about the request itself: another try may get through. */
const networkCodes = new Set([
  'REQUEST_SEND_ERROR',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * Turns what an SDK call threw into a StorageError: 5xx, 408, 429, no answer, a timeout, refused
 * credentials (401/403: an operator must fix the role, nothing is wrong with the request) and
 * lost races (409/412 that a repository did not expect) are `unavailable`; 400 and 413 are
 * `invalid`; any other answer is `refused`. What did not come from storage (a programming error,
 * a process going down) is returned as it is.
 */
export function toStorageError(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    statusCode?: unknown;
    code?: unknown;
    name?: unknown;
    response?: { headers?: { get?: (name: string) => string | undefined } };
  };
  const status = typeof fields.statusCode === 'number' ? fields.statusCode : undefined;
  // Table errors carry storage's code only in the response header.
  const code = typeof fields.code === 'string' ? fields.code : fields.response?.headers?.get?.('x-ms-error-code');
  const timedOut = fields.name === 'AbortError' || fields.name === 'TimeoutError';
  let kind: StorageFailureKind;
  if (status === undefined) {
    if (!timedOut && !(code !== undefined && networkCodes.has(code))) return error;
    kind = 'unavailable';
  } else if (status >= 500 || [401, 403, 408, 409, 412, 429].includes(status)) {
    kind = 'unavailable';
  } else {
    kind = status === 400 || status === 413 ? 'invalid' : 'refused';
  }
  return new StorageError(kind, status, code, { cause: error });
}

/**
 * Wraps an SDK client so that every failure of its calls is a StorageError: the one place where
 * SDK errors become the service's own. Methods run on the real client; what they return is
 * wrapped too when it is a promise, a child client (`getBlockBlobClient`, `getQueueClient`) or a
 * listing iterator, so nothing leaks an SDK error. Plain results (entities, responses) are
 * returned as they are.
 */
export function translateStorageErrors<T extends object>(client: T): T {
  const wrapped = new Map<PropertyKey, unknown>();
  const proxy: T = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || property === 'constructor') return value;
      const cached = wrapped.get(property);
      if (cached !== undefined) return cached;
      const method = value as (...args: unknown[]) => unknown;
      const call = (...args: unknown[]): unknown => {
        let result: unknown;
        try {
          result = method.apply(target, args);
        } catch (error) {
          throw toStorageError(error);
        }
        // A listing iterator answers `[Symbol.asyncIterator]()` with itself: keep the wrapper.
        if (result === target) return proxy;
        return wrapResult(result);
      };
      wrapped.set(property, call);
      return call;
    },
  });
  return proxy;
}

function wrapResult(result: unknown): unknown {
  if (result instanceof Promise) {
    return result.then(
      (resolved: unknown) => resolved,
      (error: unknown) => {
        throw toStorageError(error);
      },
    );
  }
  if (typeof result === 'object' && result !== null && (isChildClient(result) || isAsyncIterator(result))) {
    return translateStorageErrors(result);
  }
  return result;
}

function isChildClient(value: object): boolean {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name.endsWith('Client');
}

function isAsyncIterator(value: object): boolean {
  return typeof (value as { next?: unknown }).next === 'function' && Symbol.asyncIterator in value;
}

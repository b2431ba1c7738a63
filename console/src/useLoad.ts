import { useCallback, useEffect, useState } from 'preact/hooks';
import { HqApiError } from './api/HqClient.js';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: HqApiError | undefined;
  readonly loading: boolean;
  readonly reload: () => void;
}

/**
 * Runs `load` when `key` changes (or on reload) and keeps only the answer of the latest run, so a
 * slow answer for an earlier filter never replaces a newer one.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: HqApiError | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    load().then(
      (data) => {
        if (current) setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (!current) return;
        const apiError =
          error instanceof HqApiError ? error : new HqApiError(0, 'CLIENT', error instanceof Error ? error.message : 'Failed.');
        setState({ data: undefined, error: apiError, loading: false });
      },
    );
    return () => {
      current = false;
    };
    // `load` is a new closure every render; `key` names everything it depends on.
  }, [key, round]);
  const reload = useCallback(() => {
    setRound((n) => n + 1);
  }, []);
  return { ...state, reload };
}

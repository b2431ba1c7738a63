import { createContext } from 'preact';
import { useContext, useEffect, type Dispatch, type StateUpdater } from 'preact/hooks';

/**
 * Sets the text of the console's one status live region (App). A screen reader reads a live region
 * out when its text changes, not when it is inserted with its text: the region stands, empty, from
 * the first render, and messages are written into it.
 */
export const StatusContext = createContext<Dispatch<StateUpdater<string>>>(() => undefined);

/**
 * Says `text` in the status region while the calling component is shown, and clears it afterwards
 * unless a later message has replaced it (several parts of a page load at once).
 */
export function useStatusMessage(text: string): void {
  const setStatus = useContext(StatusContext);
  useEffect(() => {
    setStatus(text);
    return () => {
      setStatus((current) => (current === text ? '' : current));
    };
  }, [text]);
}

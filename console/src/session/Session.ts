import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { HqClient } from '../api/HqClient.js';
import type { WhoAmI } from '../api/hqTypes.js';

/** The signed-in operator: their API client and who the key belongs to. */
export interface Session {
  readonly client: HqClient;
  readonly me: WhoAmI;
  readonly isAdmin: boolean;
}

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

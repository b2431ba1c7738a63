import type { StorageClients } from '../storage/StorageClients.js';

/** The storage the tool acts on, as its table endpoint, and whether that is a local emulator. */
export interface StorageEndpoint {
  readonly url: string;
  readonly emulator: boolean;
}

/** The emulator's well-known account, whatever host it is reached on. */
const emulatorAccount = 'devstoreaccount1';

/**
 * Where the clients' tables are: `UseDevelopmentStorage=true` and an explicit emulator connection
 * string alike end on a loopback host (or the emulator's account), which no Azure account is.
 */
export function storageEndpoint(storage: Pick<StorageClients, 'tableService'>): StorageEndpoint {
  let parsed: URL;
  try {
    parsed = new URL(storage.tableService.url);
  } catch {
    // Not a URL the tool can read: not known to be the emulator; the health check finds out.
    return { url: '(unreadable)', emulator: false };
  }
  const { hostname, pathname, origin } = parsed;
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const emulator =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '::1' ||
    host === '0.0.0.0' ||
    pathname.split('/')[1] === emulatorAccount;
  // Origin and path only: a SAS connection string puts its signature in the client's query.
  return { url: pathname === '/' ? origin : `${origin}${pathname}`, emulator };
}

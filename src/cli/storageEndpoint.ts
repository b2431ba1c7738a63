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
  const url = storage.tableService.url;
  let emulator = false;
  try {
    const { hostname, pathname } = new URL(url);
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    emulator =
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      /^127\.\d+\.\d+\.\d+$/.test(host) ||
      host === '::1' ||
      host === '0.0.0.0' ||
      pathname.split('/')[1] === emulatorAccount;
  } catch {
    // Not a URL the tool can read: not known to be the emulator; the health check finds out.
  }
  return { url, emulator };
}

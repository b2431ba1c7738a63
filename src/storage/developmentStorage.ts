/**
 * The storage emulator's well-known development account (public, documented by Azure; not a
 * secret). `UseDevelopmentStorage=true` means this account on the emulator's default ports.
 */
const developmentAccount = {
  name: 'devstoreaccount1',
  key: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
} as const;

export const developmentPorts = { blob: 10000, queue: 10001, table: 10002 } as const;

/**
 * Explicit connection string for the emulator on the given host and ports, for the development
 * account or another account the emulator was started with (see {@link emulatorAccountsSetting}).
 */
export function developmentConnectionString(
  ports: { blob: number; queue: number; table: number } = developmentPorts,
  host = '127.0.0.1',
  name: string = developmentAccount.name,
): string {
  const { key } = developmentAccount;
  return [
    'DefaultEndpointsProtocol=http',
    `AccountName=${name}`,
    `AccountKey=${key}`,
    `BlobEndpoint=http://${host}:${ports.blob}/${name}`,
    `QueueEndpoint=http://${host}:${ports.queue}/${name}`,
    `TableEndpoint=http://${host}:${ports.table}/${name}`,
  ].join(';');
}

/**
 * The emulator's AZURITE_ACCOUNTS value for the development account plus `extra` accounts, all with
 * the development key: each account has tables, queues and containers of its own.
 */
export function emulatorAccountsSetting(extra: readonly string[]): string {
  return [developmentAccount.name, ...extra].map((name) => `${name}:${developmentAccount.key}`).join(';');
}

/** Whether a connection string is the `UseDevelopmentStorage=true` shorthand. */
export function isDevelopmentStorage(connectionString: string): boolean {
  return /^\s*UseDevelopmentStorage\s*=\s*true\s*;?\s*$/i.test(connectionString);
}

/** Replaces the `UseDevelopmentStorage=true` shorthand with the explicit connection string. */
export function expandConnectionString(connectionString: string): string {
  return isDevelopmentStorage(connectionString) ? developmentConnectionString() : connectionString;
}

import { lookup } from 'node:dns/promises';

/** Every address a host name resolves to. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/**
 * The operating system's resolver (hosts file included), as a connection would use it. All
 * addresses are returned, in the resolver's order, so that every one of them can be checked.
 */
export const systemResolver: HostResolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
};

import { ConfigError } from '../config/ConfigError.js';

/**
 * The local host's port when `PORT` is not set (the Functions Core Tools' default).
 * @internal read by its own test instead of restating it.
 */
export const defaultLocalPort = 7071;

/**
 * The port `npm start` listens on, from `PORT` (read by the local host only; Azure's host picks
 * its own). 0 asks the system for a free one. Anything but a port number is refused rather than
 * left to `listen`, which would take some values for a pipe name or a random port.
 */
export function localPort(value: string | undefined): number {
  if (value === undefined || value === '') return defaultLocalPort;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port <= 65535)) throw new ConfigError([`PORT must be a port number from 0 to 65535 (it is "${value}")`]);
  return port;
}

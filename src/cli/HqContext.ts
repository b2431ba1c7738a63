import type { HostKeys } from './HostKeys.js';
import type { ParsedArgs } from './parseArgs.js';

export interface HqOutput {
  out(line: string): void;
  err(line: string): void;
}

/** The options a command was given, already checked against the ones it takes. */
export type Options = ParsedArgs['options'];

/** The function app whose host keys a command keeps in step with the service's keys. */
export interface FunctionAppKeys {
  readonly keys: HostKeys;
  readonly app: string;
}

/** What every group of the HQ tool's commands shares: where lines go, the time, and how typed names are found. */
export interface HqContext {
  readonly io: HqOutput;
  readonly clock: () => Date;
  /** The stored id of the partner an operator typed, whatever its case; a Refusal when there is none. */
  resolvePartner(typed: string): Promise<string>;
  /** The function app named by the options or the settings; undefined for local use. */
  functionAppKeys(options: Options): FunctionAppKeys | undefined;
}

import { parseArgs as parseCommandLine } from 'node:util';
import { printable } from './printable.js';

/** Every option the tool knows; each command says which of them it takes. */
export const knownOptions = {
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  expires: { type: 'string' },
  partner: { type: 'string' },
  status: { type: 'string' },
  state: { type: 'string' },
  date: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  role: { type: 'string' },
  limit: { type: 'string' },
  'function-app': { type: 'string' },
  'resource-group': { type: 'string' },
  subscription: { type: 'string' },
} as const;

export type OptionName = Exclude<keyof typeof knownOptions, 'help'>;

/** Positional words and `--name value` / `--name=value` options of a command line. */
export interface ParsedArgs {
  readonly words: string[];
  readonly options: Partial<Record<OptionName, string>>;
  readonly help: boolean;
}

/**
 * Parses with node:util's strict parser: an option the tool does not know is refused (a typo must
 * not be ignored), a value keeps every `=` after the first (`--name=a=b` is `a=b`), and a string
 * option without a value is refused.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  // A negative number (a payment direction of -1) is an argument, not a short option: it is held
  // back from the parser under a name no option can have, and put back after.
  const negatives = new Map<string, string>();
  const args = argv.map((arg, i) => {
    if (!/^-\d+$/.test(arg)) return arg;
    const stand = `\u0000${String(i)}`;
    negatives.set(stand, arg);
    return stand;
  });
  let parsed;
  try {
    parsed = parseCommandLine({ args, options: knownOptions, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? printable(firstLine(error.message)) : 'cannot read the command line');
  }
  const restore = (value: string): string => negatives.get(value) ?? value;
  const { help, ...values } = parsed.values;
  const options = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? restore(value) : value]),
  ) as ParsedArgs['options'];
  return { words: parsed.positionals.map(restore), options, help: help === true };
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).replace(/\. To specify a positional argument.*$/, '');
}

/** A command line that cannot be carried out as typed (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

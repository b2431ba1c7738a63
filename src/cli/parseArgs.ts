/** Positional words and `--name value` options of a command line. */
export interface ParsedArgs {
  readonly words: string[];
  readonly options: Record<string, string>;
  readonly help: boolean;
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const options: Record<string, string> = {};
  let help = false;
  const rest = [...argv];
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? rest.shift();
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options[name] = value;
    } else words.push(arg);
  }
  return { words, options, help };
}

/** A command line that cannot be carried out as typed (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

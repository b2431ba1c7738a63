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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? argv[i + 1];
      if (inline === undefined) i++;
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

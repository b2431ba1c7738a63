import type { Options } from './HqContext.js';
import { UsageError, type OptionName } from './parseArgs.js';

/** The positional words after a command's own, already counted against the command's arguments. */
export class Positionals {
  constructor(private readonly words: readonly string[]) {}

  at(index: number): string {
    const word = this.words[index];
    if (word === undefined) throw new UsageError(`missing argument ${String(index + 1)}`);
    return word;
  }

  rest(from: number): string[] {
    return this.words.slice(from);
  }
}

/** One command: its words, its positional arguments (a trailing `...` takes the rest), its options. */
export interface Command {
  readonly words: string;
  readonly args: readonly string[];
  readonly options: readonly OptionName[];
  readonly run: (args: Positionals, options: Options) => Promise<void>;
}

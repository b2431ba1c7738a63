import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project folder: the nearest folder at or above `start` that holds both `package.json` and
 * a `schemas` folder. Works from `src/config` (tests) and from `dist/src/config` (build).
 */
export function findProjectRoot(start: string = __dirname): string {
  for (let folder = path.resolve(start); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json')) && existsSync(path.join(folder, 'schemas'))) {
      return folder;
    }
    if (path.dirname(folder) === folder) {
      throw new Error(`No folder holding package.json and schemas/ was found above ${start}.`);
    }
  }
}

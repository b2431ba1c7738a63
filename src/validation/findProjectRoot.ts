import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project folder: the nearest folder at or above `start` that holds both `package.json` and
 * a `schemas` folder. Works from `src/validation` (tests) and from `dist/src/validation` (build).
 */
export function findProjectRoot(start: string = __dirname): string {
  let folder = path.resolve(start);
  while (true) {
    if (existsSync(path.join(folder, 'package.json')) && existsSync(path.join(folder, 'schemas'))) {
      return folder;
    }
    const parent = path.dirname(folder);
    if (parent === folder) {
      throw new Error(`No folder holding package.json and schemas/ was found above ${start}.`);
    }
    folder = parent;
  }
}

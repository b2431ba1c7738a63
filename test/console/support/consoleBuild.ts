import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../../../src/config/findProjectRoot.js';
import { readHostSettings } from '../../../src/localhost/readHostSettings.js';
import type { TestService } from '../../support/startTestService.js';

/**
 * Builds the console with the project's own build script into a folder of this test file, so a
 * concurrent `npm run build` (the npm start test) never changes the files under test.
 */
export function buildConsole(): { dir: string; remove: () => void } {
  const root = findProjectRoot();
  const dir = mkdtempSync(path.join(tmpdir(), 'hq-console-'));
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildConsole.mjs'), '--out', dir], { cwd: root, stdio: 'pipe' });
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Origin of the running service (no route prefix). */
function originOf(service: TestService): string {
  return new URL(service.baseUrl).origin;
}

/** Address of the console page: `console/` below the host's route prefix, as host.json sets it. */
export function consoleUrl(service: TestService, file = ''): string {
  const prefix = readHostSettings(path.join(findProjectRoot(), 'host.json')).routePrefix;
  return `${originOf(service)}/${prefix === '' ? '' : `${prefix}/`}console/${file}`;
}

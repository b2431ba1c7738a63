import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from './loadConfig.js';
import { settingNames } from './settingNames.js';

/**
 * Local settings in the Functions host's order: environment variables first, then the `Values`
 * of `local.settings.json` if present, then the documented local defaults of
 * `local.settings.sample.json`.
 */
export function resolveLocalSettings(env: Settings, projectRoot: string): Settings {
  const values = (file: string): Settings => {
    const full = path.join(projectRoot, file);
    if (!existsSync(full)) return {};
    const parsed = JSON.parse(readFileSync(full, 'utf8')) as { Values?: Record<string, string> };
    return parsed.Values ?? {};
  };
  const fromFiles = { ...values('local.settings.sample.json'), ...values('local.settings.json') };
  // An operator who exports the identity-based storage settings means Azure: the file's
  // development connection string must not win over them.
  const identityExported = Boolean(env[settingNames.storageTableServiceUri]) && env[settingNames.storage] === undefined;
  const merged: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(fromFiles).filter(([name]) => !(identityExported && name === settingNames.storage)),
  );
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return merged;
}

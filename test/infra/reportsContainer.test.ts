import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { settingNames } from '../../src/config/settingNames.js';
import { reportFragmentsPrefix } from '../../src/storage/ReportFragmentStore.js';

/*
 * The report container is named by configuration (REPORTS_CONTAINER) rather than fixed in
 * src/storage/storageNames.ts: the Bicep must create the very container the app setting names,
 * with the same default as local.settings.sample.json. Read as text, as the Bicep CLI is absent.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const main = read('infra/main.bicep');
const storage = read('infra/modules/storage.bicep');
const sample = JSON.parse(read('local.settings.sample.json')) as { Values: Record<string, string> };

function must(value: string | undefined, what: string): string {
  if (value === undefined) throw new Error(`${what} not found`);
  return value;
}

/** The main.bicep param the app setting REPORTS_CONTAINER takes its value from. */
function settingParam(): string {
  const setting = new RegExp(`name:\\s*'${settingNames.reportsContainer}'\\s*\\n\\s*value:\\s*(\\w+)`).exec(main);
  return must(setting?.[1], 'app setting REPORTS_CONTAINER');
}

describe('the report container in infra/', () => {
  const param = /^\s*param\s+(\w+)\s+string\s*=\s*'([^']+)'/gm;
  const mainParams = new Map([...main.matchAll(param)].map((m) => [must(m[1], 'param name'), must(m[2], 'param default')]));

  it('the app setting REPORTS_CONTAINER is a main.bicep param whose default is the local default', () => {
    const paramName = settingParam();
    expect(mainParams.get(paramName)).toBe(sample.Values[settingNames.reportsContainer]);
    expect(sample.Values[settingNames.reportsContainer]).toBe('reports');
  });

  it('the storage module creates a private container named by the same param', () => {
    const paramName = settingParam();
    const passed = new RegExp(`module\\s+storage\\s+'modules/storage\\.bicep'[\\s\\S]*?\\n\\s*(\\w+):\\s*${paramName}\\s*\\n`).exec(main);
    const moduleParam = must(passed?.[1], `main.bicep passing ${paramName} to the storage module`);
    expect(storage).toMatch(
      new RegExp(
        `resource\\s+\\w+\\s+'Microsoft\\.Storage/storageAccounts/blobServices/containers@[^']+'\\s*=\\s*\\{[^}]*name:\\s*${moduleParam}\\s*\\n\\s*properties:\\s*\\{\\s*publicAccess:\\s*'None'`,
      ),
    );
  });

  it.each(['main.test.bicepparam', 'main.production.bicepparam'])('%s names the container explicitly', (file) => {
    expect(read(`infra/${file}`)).toMatch(/^param reportsContainerName = 'reports'$/m);
  });

  it('the storage module deletes staged fragments, and nothing else, after the retention main.bicep passes', () => {
    const rule = /resource\s+\w+\s+'Microsoft\.Storage\/storageAccounts\/managementPolicies@[^']+'\s*=\s*\{([\s\S]*?)\n\}/.exec(storage);
    const body = must(rule?.[1], 'the lifecycle management policy');
    const prefixes = [...body.matchAll(/prefixMatch:\s*\[([^\]]*)\]/g)].flatMap((m) => [...must(m[1], 'prefixes').matchAll(/'([^']+)'/g)]);
    expect(prefixes.map((m) => m[1])).toEqual([`\${reportsContainerName}/${reportFragmentsPrefix}`]);
    expect(body).toMatch(/delete:\s*\{\s*daysAfterModificationGreaterThan:\s*reportFragmentRetentionDays\s*\}/);
    expect(main).toMatch(/^param reportFragmentRetentionDays int = \d+$/m);
    expect(main).toMatch(/\n\s*reportFragmentRetentionDays:\s*reportFragmentRetentionDays\s*\n/);
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { settingNames } from '../../src/config/settingNames.js';

const read = (file: string): string => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');

describe('event settings in the infrastructure', () => {
  it('Azure never lifts the webhook target restriction', () => {
    const bicep = read('infra/main.bicep');
    expect(bicep).not.toMatch(new RegExp(`name:\\s*'${settingNames.webhookAllowPrivateTargets}'`));
  });

  it('every environment gets the same event type prefix, since partners code against the type names', () => {
    const prefixes = ['infra/main.production.bicepparam', 'infra/main.test.bicepparam'].map(
      (file) => /^\s*param\s+eventTypePrefix\s*=\s*'([^']*)'/m.exec(read(file))?.[1],
    );
    expect(prefixes[0]).toBeDefined();
    expect(prefixes[1]).toBe(prefixes[0]);
  });

  it('the local sample names the private-target switch, off', () => {
    const sample = JSON.parse(read('local.settings.sample.json')) as { Values: Record<string, string> };
    expect(sample.Values[settingNames.webhookAllowPrivateTargets]).toBe('false');
  });
});

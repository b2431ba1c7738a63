import { describe, expect, it } from 'vitest';
import { loadConfig, type Settings } from '../../src/config/loadConfig.js';
import { problemsOf } from './problemsOf.js';
import { validSettings } from './validSettings.js';

const base: Settings = { ...validSettings, EVENT_TYPE_PREFIX: 'com.contoso.pos' };

const identityStorage: Settings = {
  ...base,
  AzureWebJobsStorage: undefined,
  AzureWebJobsStorage__blobServiceUri: 'https://acct.blob.core.windows.net',
  AzureWebJobsStorage__queueServiceUri: 'https://acct.queue.core.windows.net',
  AzureWebJobsStorage__tableServiceUri: 'https://acct.table.core.windows.net',
};

describe('EVENT_TYPE_PREFIX', () => {
  it('is read as given', () => {
    expect(loadConfig(base).eventTypePrefix).toBe('com.contoso.pos');
  });

  it('is required: no default can name HQ', () => {
    expect(problemsOf({ ...base, EVENT_TYPE_PREFIX: undefined })).toEqual(['EVENT_TYPE_PREFIX is not set']);
    expect(problemsOf({ ...base, EVENT_TYPE_PREFIX: '  ' })).toEqual(['EVENT_TYPE_PREFIX is not set']);
  });

  it.each(['pos', 'Com.Contoso.pos', 'com..pos', 'com.contoso.', '.com.contoso', 'com.1contoso', 'com.contoso/pos', 'com contoso'])(
    'refuses %j',
    (prefix) => {
      expect(problemsOf({ ...base, EVENT_TYPE_PREFIX: prefix })).toEqual([
        expect.stringContaining('EVENT_TYPE_PREFIX must be a reverse-DNS name'),
      ]);
    },
  );
});

describe('WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  it('is off when absent, empty or false', () => {
    expect(loadConfig(base).webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: '' }).webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhookAllowPrivateTargets).toBe(false);
  });

  it('is on with true on the connection-string storage path (local development, tests)', () => {
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'TRUE' }).webhookAllowPrivateTargets).toBe(true);
  });

  it('refuses anything but true or false rather than guessing', () => {
    expect(problemsOf({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toEqual(['WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false']);
  });

  it('cannot be turned on with managed-identity storage (Azure)', () => {
    expect(loadConfig(identityStorage).webhookAllowPrivateTargets).toBe(false);
    expect(problemsOf({ ...identityStorage, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toEqual([
      expect.stringContaining('WEBHOOK_ALLOW_PRIVATE_TARGETS=true is for local development and tests only'),
    ]);
  });
});

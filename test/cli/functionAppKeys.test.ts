import { describe, expect, it } from 'vitest';
import type { FunctionAppTarget, HostKeys } from '../../src/cli/HostKeys.js';
import { functionAppKeys } from '../../src/cli/functionAppKeys.js';
import { Refusal } from '../../src/cli/Refusal.js';

const noKeys: HostKeys = { set: () => Promise.resolve(), remove: () => Promise.resolve() };

/** A factory that notes the function app it was asked for. */
function recording(): { targets: FunctionAppTarget[]; factory: (target: FunctionAppTarget) => HostKeys } {
  const targets: FunctionAppTarget[] = [];
  return {
    targets,
    factory: (target) => {
      targets.push(target);
      return noKeys;
    },
  };
}

describe('functionAppKeys', () => {
  it('is undefined for local use, when neither the options nor the settings name a function app', () => {
    expect(functionAppKeys({}, { AZURE_SUBSCRIPTION_ID: 'sub' }, recording().factory)).toBeUndefined();
  });

  it('takes the options over the settings, each part on its own', () => {
    const { targets, factory } = recording();
    const settings = { POS_FUNCTION_APP: 'from-settings', POS_RESOURCE_GROUP: 'rg-settings', AZURE_SUBSCRIPTION_ID: 'sub-settings' };
    expect(functionAppKeys({ 'function-app': 'from-option' }, settings, factory)?.app).toBe('from-option');
    expect(functionAppKeys({}, settings, factory)?.app).toBe('from-settings');
    expect(targets).toEqual([
      { functionApp: 'from-option', resourceGroup: 'rg-settings', subscriptionId: 'sub-settings' },
      { functionApp: 'from-settings', resourceGroup: 'rg-settings', subscriptionId: 'sub-settings' },
    ]);
  });

  it('refuses half a name, a missing subscription, and a tool that cannot reach host keys', () => {
    const { factory } = recording();
    expect(() => functionAppKeys({ 'function-app': 'app' }, {}, factory)).toThrow('--function-app and --resource-group go together');
    expect(() => functionAppKeys({ 'resource-group': 'rg' }, {}, factory)).toThrow('--function-app and --resource-group go together');
    expect(() => functionAppKeys({ 'function-app': 'app', 'resource-group': 'rg' }, {}, factory)).toThrow(
      /--subscription or AZURE_SUBSCRIPTION_ID/,
    );
    expect(() => functionAppKeys({ 'function-app': 'app', 'resource-group': 'rg', subscription: 'sub' }, {}, undefined)).toThrow(
      'this tool cannot manage host keys here',
    );
  });
});

describe('functionAppKeys with the storage the tool acts on', () => {
  const emulator = { url: 'http://127.0.0.1:10002/devstoreaccount1', emulator: true };
  const azure = { url: 'https://stposprod.table.core.windows.net/', emulator: false };
  const named = { 'function-app': 'pos-func', 'resource-group': 'rg-pos', subscription: 'sub' };

  it('refuses a function app when the storage is the local emulator, before any host key is touched', () => {
    const { targets, factory } = recording();
    expect(() => functionAppKeys(named, {}, factory, emulator)).toThrow(Refusal);
    expect(() => functionAppKeys(named, {}, factory, emulator)).toThrow(
      /pos-func is in Azure, but the storage settings resolve to the local storage emulator \(http:\/\/127\.0\.0\.1:10002\/devstoreaccount1\).*Export AzureWebJobsStorage__blobServiceUri, AzureWebJobsStorage__queueServiceUri, AzureWebJobsStorage__tableServiceUri/,
    );
    // Named by the settings instead of the options: the same.
    expect(() =>
      functionAppKeys({}, { POS_FUNCTION_APP: 'pos-func', POS_RESOURCE_GROUP: 'rg', AZURE_SUBSCRIPTION_ID: 's' }, factory, emulator),
    ).toThrow(Refusal);
    expect(targets).toEqual([]);
  });

  it('takes a function app with Azure storage, and local use with the emulator', () => {
    const { factory } = recording();
    expect(functionAppKeys(named, {}, factory, azure)?.app).toBe('pos-func');
    expect(functionAppKeys({}, {}, factory, emulator)).toBeUndefined();
  });
});

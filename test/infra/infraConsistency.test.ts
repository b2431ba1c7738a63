import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { identityStorageSettingNames, settingNames, tunableSettingNames } from '../../src/config/settingNames.js';
import { maxReconcileDelaySeconds } from '../../src/config/loadConfig.js';
import { containerNames, poisonQueueName, queueNames, tableNames } from '../../src/storage/storageNames.js';
import type { FunctionDefinition, HttpFunctionDefinition } from '../../src/functions/FunctionDefinition.js';
import { maxDequeueCount } from '../../src/queue/createQueueHandler.js';
import { reconcileRunBudgetMs } from './reconcileRunBudget.js';

/*
 * Keeps the code, `local.settings.sample.json` and the Bicep in `infra/` in step. The Bicep CLI is
 * not available on the build machines, so the templates are read as text with small regexes.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const infraDir = join(root, 'infra');
const modulesDir = join(infraDir, 'modules');

/** Removes `//` and `/* *\/` comments, leaving single-quoted strings (which may hold `//`) intact. */
function stripBicepComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (inString) {
      out += c;
      if (c === '\\' && next !== undefined) {
        out += next;
        i += 2;
        continue;
      }
      if (c === "'") inString = false;
      i += 1;
      continue;
    }
    if (c === "'") {
      inString = true;
      out += c;
      i += 1;
    } else if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

function readBicep(path: string): string {
  return stripBicepComments(readFileSync(path, 'utf8'));
}

const mainPath = join(infraDir, 'main.bicep');
const main = readBicep(mainPath);
const modules = new Map(
  readdirSync(modulesDir)
    .filter((file) => file.endsWith('.bicep'))
    .map((file) => [file, readBicep(join(modulesDir, file))] as const),
);
const templates = new Map<string, string>([['main.bicep', main], ...[...modules].map(([f, t]) => [`modules/${f}`, t] as const)]);
const paramFiles = new Map(
  readdirSync(infraDir)
    .filter((file) => file.endsWith('.bicepparam'))
    .map((file) => [file, readBicep(join(infraDir, file))] as const),
);
const allBicep = [...templates.values(), ...paramFiles.values()].join('\n');

function matches(text: string, pattern: RegExp): RegExpExecArray[] {
  return [...text.matchAll(pattern)];
}

/** Names of app settings written as `{ name: '...' value: ... }` entries. */
function appSettingNames(text: string): Set<string> {
  return new Set(matches(text, /\{\s*name:\s*'([^']+)'\s*[,\n]\s*value:/g).map((m) => m[1]!));
}

/** Every `var x = { key: 'value' ... }` with only string values, as a plain object. */
function stringObjectVars(text: string): Record<string, Record<string, string>> {
  const vars: Record<string, Record<string, string>> = {};
  for (const m of matches(text, /\bvar\s+(\w+)\s*=\s*\{([^{}]*)\}/g)) {
    vars[m[1]!] = Object.fromEntries(matches(m[2]!, /^\s*(\w+):\s*'([^']*)'\s*$/gm).map((e) => [e[1]!, e[2]!]));
  }
  return vars;
}

/** For each resource type declared as `= [for x in items(someVar): ...]`, the variables it loops over. */
function loopedResources(text: string): Map<string, Set<string>> {
  const byType = new Map<string, Set<string>>();
  for (const m of matches(text, /\bresource\s+\w+\s+'([^'@]+)@[^']+'\s*=\s*\[\s*for\s+\w+\s+in\s+items\((\w+)\)/g)) {
    const set = byType.get(m[1]!) ?? new Set<string>();
    set.add(m[2]!);
    byType.set(m[1]!, set);
  }
  return byType;
}

/** Parameters declared in a template, and whether each has a default value. */
function declaredParams(text: string): Map<string, { hasDefault: boolean }> {
  return new Map(matches(text, /^\s*param\s+(\w+)\b([^\n]*)$/gm).map((m) => [m[1]!, { hasDefault: m[2]!.includes('=') }]));
}

/** The body of the `{ ... }` that opens at `openIndex`, brace-matched. */
function braceBlock(text: string, openIndex: number): string {
  let depth = 0;
  for (let i = openIndex; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(openIndex + 1, i);
    }
  }
  throw new Error('unbalanced braces');
}

const looksSecret = /key|password|secret|connectionstring/i;

describe('app settings', () => {
  const bicepSettings = appSettingNames(main);
  const sample = JSON.parse(readFileSync(join(root, 'local.settings.sample.json'), 'utf8')) as {
    Values?: Record<string, string>;
  };
  const sampleValues = sample.Values ?? {};

  it.each([...tunableSettingNames])('tunable %s is set by the Bicep app settings', (name) => {
    expect([...bicepSettings]).toContain(name);
  });

  it.each([...tunableSettingNames])('tunable %s is in local.settings.sample.json', (name) => {
    expect(Object.keys(sampleValues)).toContain(name);
  });

  it.each([...identityStorageSettingNames])('identity-based storage setting %s is set by the Bicep', (name) => {
    expect([...bicepSettings]).toContain(name);
  });

  it('the sample file has the local storage connection', () => {
    expect(Object.keys(sampleValues)).toContain(settingNames.storage);
  });

  it('Azure gets no connection-string form of the storage setting (it would win over the identity form)', () => {
    expect([...bicepSettings]).not.toContain(settingNames.storage);
  });

  it('the identity settings say managed identity', () => {
    expect(main).toMatch(new RegExp(`name:\\s*'${settingNames.storageCredential}'\\s*[,\\n]\\s*value:\\s*'managedidentity'`));
  });

  it('Application Insights is reached with the app identity', () => {
    expect([...bicepSettings]).toEqual(
      expect.arrayContaining(['APPLICATIONINSIGHTS_CONNECTION_STRING', 'APPLICATIONINSIGHTS_AUTHENTICATION_STRING']),
    );
    expect(main).toMatch(/ClientId=\$\{[^}]+\};Authorization=AAD/);
    expect(main).toMatch(/DisableLocalAuth:\s*true/);
  });

  it('no setting the Flex Consumption plan rejects is set', () => {
    for (const rejected of [
      'FUNCTIONS_WORKER_RUNTIME',
      'FUNCTIONS_EXTENSION_VERSION',
      'WEBSITE_RUN_FROM_PACKAGE',
      'WEBSITE_CONTENTSHARE',
      'WEBSITE_CONTENTAZUREFILECONNECTIONSTRING',
      'WEBSITE_NODE_DEFAULT_VERSION',
    ]) {
      expect([...bicepSettings]).not.toContain(rejected);
    }
  });
});

describe('the host in Azure', () => {
  const sample = JSON.parse(readFileSync(join(root, 'local.settings.sample.json'), 'utf8')) as { Values: Record<string, string> };
  const hostJson = JSON.parse(readFileSync(join(root, 'host.json'), 'utf8')) as {
    functionTimeout?: string;
    extensions?: { queues?: { maxDequeueCount?: number } };
  };
  const bicepValue = (name: string): string | undefined =>
    new RegExp(`name:\\s*'${name}'\\s*[,\\n]\\s*value:\\s*string\\((\\w+)\\)`).exec(main)?.[1];
  const varValue = (name: string): number | undefined => {
    const m = new RegExp(`^\\s*var\\s+${name}\\s*=\\s*(\\d+)`, 'm').exec(main);
    return m ? Number(m[1]) : undefined;
  };

  it('FUNCTIONS_REQUEST_BODY_SIZE_LIMIT leaves bodies far over 5 MB to the service, the same locally and in Azure', () => {
    const variable = bicepValue(settingNames.hostRequestBodySizeLimit);
    expect(variable).toBeDefined();
    const inAzure = varValue(variable!);
    const bodyLimit = varValue(bicepValue(settingNames.maxRequestBodyBytes)!);
    expect(bodyLimit).toBe(5 * 1024 * 1024);
    // Over it the host answers a bare 500 (which a client retries), not 413: bodies up to 20 times
    // the contract's limit get the service's 413 PAYLOAD_TOO_LARGE.
    expect(inAzure).toBeGreaterThanOrEqual(bodyLimit! * 20);
    expect(Number(sample.Values[settingNames.hostRequestBodySizeLimit])).toBe(inAzure);
  });

  it('MAX_REQUEST_BODY_BYTES of the sample, which the OpenAPI document and the partner kit state, is the one in Azure', () => {
    const inAzure = varValue(bicepValue(settingNames.maxRequestBodyBytes)!);
    expect(inAzure).toBeDefined();
    expect(Number(sample.Values[settingNames.maxRequestBodyBytes])).toBe(inAzure);
  });

  it("turns off the host's homepage at / in Azure and in the local defaults", () => {
    expect(main).toMatch(new RegExp(`name:\\s*'${settingNames.hostDisableHomepage}'\\s*[,\\n]\\s*value:\\s*'true'`));
    expect(sample.Values[settingNames.hostDisableHomepage]).toBe('true');
  });

  it('MAX_REQUEST_BYTES_IN_FLIGHT holds at least one whole body', () => {
    expect(declaredParams(main).has('maxRequestBytesInFlight')).toBe(true);
    expect(main).toMatch(/@minValue\(5242880\)\s*param\s+maxRequestBytesInFlight\b/);
    expect(Number(sample.Values[settingNames.maxRequestBytesInFlight])).toBeGreaterThanOrEqual(5 * 1024 * 1024);
  });

  /** host.json's `functionTimeout` in seconds; undefined when it is not a time span of hh:mm:ss. */
  const functionTimeoutSeconds = (): number | undefined => {
    const match = /^(\d{2}):(\d{2}):(\d{2})$/.exec(hostJson.functionTimeout ?? '');
    return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : undefined;
  };

  it('host.json sets functionTimeout, within the platform bound and above every storage deadline', () => {
    const seconds = functionTimeoutSeconds();
    expect(seconds).toBeDefined();
    expect(seconds).toBeGreaterThan(60);
    expect(seconds).toBeLessThanOrEqual(30 * 60);
  });

  it("RECONCILE_DELAY_SECONDS is at least functionTimeout in Azure, so a close's run finds every push that missed the close", () => {
    // A push reads the close beside its index write: one that read just before the close arrived
    // writes its rows for at most functionTimeout, and schedules no rerun of its own.
    const floor = /@minValue\((\d+)\)\s*(?:@maxValue\(\d+\)\s*)?param\s+reconcileDelaySeconds\b/.exec(main)?.[1];
    expect(Number(floor)).toBeGreaterThanOrEqual(functionTimeoutSeconds() ?? Infinity);
  });

  it('RECONCILE_DELAY_SECONDS is held in the template to the most the service starts with', () => {
    const ceiling = /@maxValue\((\d+)\)\s*param\s+reconcileDelaySeconds\b/.exec(main)?.[1];
    expect(Number(ceiling)).toBe(maxReconcileDelaySeconds);
  });

  it('the queue functions count a poison message at the dequeue host.json moves it on', () => {
    expect(hostJson.extensions?.queues?.maxDequeueCount).toBe(maxDequeueCount);
  });

  it("a reconcile message's longest run (slot, run, store_days turn) ends at least 30 s before functionTimeout", () => {
    expect(reconcileRunBudgetMs + 30_000).toBeLessThanOrEqual((functionTimeoutSeconds() ?? 0) * 1000);
  });

  it('scale-out and per-instance HTTP concurrency are parameters set by every environment', () => {
    expect(main).toMatch(/maximumInstanceCount:\s*maximumInstanceCount/);
    expect(main).toMatch(/perInstanceConcurrency:\s*httpPerInstanceConcurrency/);
    for (const [file, text] of paramFiles) {
      expect(text, file).toMatch(/^\s*param\s+maximumInstanceCount\s*=\s*\d+/m);
      expect(text, file).toMatch(/^\s*param\s+httpPerInstanceConcurrency\s*=\s*\d+/m);
    }
  });

  it('storage redundancy is a parameter: LRS for test, zone-redundant where the region offers it', () => {
    expect(main).toMatch(/param\s+storageSkuName\s+string/);
    expect(paramFiles.get('main.test.bicepparam')).toMatch(/storageSkuName\s*=\s*'Standard_LRS'/);
    expect(paramFiles.get('main.production.bicepparam')).toMatch(/storageSkuName\s*=\s*'Standard_ZRS'/);
  });

  it('the app waits for its data roles before it starts (role assignments are dependencies of the app)', () => {
    const app = braceBlock(main, main.indexOf('{', main.indexOf("resource functionApp 'Microsoft.Web/sites")));
    expect(app).toMatch(/dependsOn:\s*\[[^\]]*\bstorage\b/);
  });
});

describe('storage names', () => {
  const namesFile = modules.get('storageNames.bicep');
  const storageModule = modules.get('storage.bicep');

  it('are defined once, in modules/storageNames.bicep, and used by modules/storage.bicep', () => {
    expect(namesFile).toBeDefined();
    expect(storageModule).toBeDefined();
    const imported = /import\s*\{([^}]*)\}\s*from\s*'storageNames\.bicep'/.exec(storageModule ?? '');
    expect(imported?.[1]?.split(',').map((s) => s.trim())).toEqual(
      expect.arrayContaining(['tableNames', 'containerNames', 'queueNames', 'poisonQueueNames']),
    );
  });

  const vars = stringObjectVars(namesFile ?? '');
  const expectedPoison = Object.fromEntries(Object.entries(queueNames).map(([key, name]) => [key, poisonQueueName(name)]));

  it('mirror src/storage/storageNames.ts exactly', () => {
    expect(vars.tableNames).toEqual({ ...tableNames });
    expect(vars.containerNames).toEqual({ ...containerNames });
    expect(vars.queueNames).toEqual({ ...queueNames });
    expect(vars.poisonQueueNames).toEqual(expectedPoison);
  });

  it('no other Bicep file spells a table, container or queue name', () => {
    const all = [
      ...Object.values(tableNames),
      ...Object.values(containerNames),
      ...Object.values(queueNames),
      ...Object.values(expectedPoison),
    ];
    for (const [file, text] of templates) {
      if (file === 'modules/storageNames.bicep') continue;
      for (const name of all) expect(text, `${file} spells '${name}'`).not.toContain(`'${name}'`);
    }
  });

  const loops = loopedResources(storageModule ?? '');
  const created = (type: string): string[] => [...(loops.get(`Microsoft.Storage/storageAccounts/${type}`) ?? [])];

  it.each(Object.values(tableNames))('table %s is created', (name) => {
    expect(Object.values(vars.tableNames ?? {})).toContain(name);
    expect(created('tableServices/tables')).toContain('tableNames');
  });

  it.each(Object.values(containerNames))('blob container %s is created', (name) => {
    expect(Object.values(vars.containerNames ?? {})).toContain(name);
    expect(created('blobServices/containers')).toContain('containerNames');
  });

  it.each(Object.values(queueNames))('queue %s and its poison queue are created', (name) => {
    expect(Object.values(vars.queueNames ?? {})).toContain(name);
    expect(Object.values(vars.poisonQueueNames ?? {})).toContain(poisonQueueName(name));
    expect(created('queueServices/queues')).toEqual(expect.arrayContaining(['queueNames', 'poisonQueueNames']));
  });

  it('the Flex deployment container is created and read with the user-assigned identity', () => {
    expect(storageModule).toMatch(
      /resource\s+\w+\s+'Microsoft\.Storage\/storageAccounts\/blobServices\/containers@[^']+'\s*=\s*\{[^}]*name:\s*deploymentContainerName/,
    );
    expect(main).toMatch(/type:\s*'blobContainer'/);
    expect(main).toMatch(/type:\s*'UserAssignedIdentity'/);
  });

  it('shared-key access and public blob access are off', () => {
    expect(storageModule).toMatch(/allowSharedKeyAccess:\s*false/);
    expect(storageModule).toMatch(/allowBlobPublicAccess:\s*false/);
    expect(storageModule).toMatch(/minimumTlsVersion:\s*'TLS1_2'/);
  });
});

describe('no secrets', () => {
  it('no param with a value, and no output, has a secret-looking name', () => {
    const offenders: string[] = [];
    for (const [file, text] of [...templates, ...paramFiles]) {
      for (const m of matches(text, /^\s*param\s+(\w+)\b[^\n]*=/gm)) {
        if (looksSecret.test(m[1]!)) offenders.push(`${file}: param ${m[1]}`);
      }
      for (const m of matches(text, /^\s*output\s+(\w+)\b/gm)) {
        if (looksSecret.test(m[1]!)) offenders.push(`${file}: output ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('no account key is read or written anywhere', () => {
    expect(allBicep).not.toMatch(/listKeys\s*\(|AccountKey=|SharedAccessSignature|listSecrets\s*\(/i);
  });
});

describe('templates hang together (no Bicep CLI here)', () => {
  const mainParams = declaredParams(main);

  it.each([...paramFiles.keys()])('%s targets main.bicep, sets every required param and only declared ones', (file) => {
    const text = paramFiles.get(file)!;
    expect(text).toMatch(/^\s*using\s+'main\.bicep'/m);
    const set = matches(text, /^\s*param\s+(\w+)\s*=/gm).map((m) => m[1]!);
    for (const name of set) expect([...mainParams.keys()], `${file} sets unknown param ${name}`).toContain(name);
    for (const [name, { hasDefault }] of mainParams) {
      if (!hasDefault) expect(set, `${file} lacks required param ${name}`).toContain(name);
    }
  });

  it('every module call passes exactly the params its module declares', () => {
    for (const m of matches(main, /\bmodule\s+\w+\s+'([^']+)'\s*=\s*\{/g)) {
      const modulePath = m[1]!;
      const moduleText = templates.get(modulePath);
      expect(moduleText, `module file ${modulePath}`).toBeDefined();
      const body = braceBlock(main, m.index + m[0].length - 1);
      const paramsAt = /\bparams:\s*\{/.exec(body);
      const passed = paramsAt ? braceBlock(body, paramsAt.index + paramsAt[0].length - 1) : '';
      const passedNames = matches(passed, /^\s*(\w+):/gm).map((p) => p[1]!);
      const declared = declaredParams(moduleText ?? '');
      for (const name of passedNames) expect([...declared.keys()], `${modulePath} has no param ${name}`).toContain(name);
      for (const [name, { hasDefault }] of declared) {
        if (!hasDefault) expect(passedNames, `${modulePath} needs param ${name}`).toContain(name);
      }
    }
  });

  it('outputs the function app name and the base URLs of the partner API, the HQ API and the console, from its host name', async () => {
    expect(main).toMatch(/^\s*output\s+functionAppName\s+string\s*=/m);
    expect(main).toMatch(/^\s*output\s+baseUrl\s+string\s*=\s*'https:\/\/\$\{functionApp\.properties\.defaultHostName\}\/pos\/v1'/m);
    expect(main).toMatch(/^\s*output\s+hqBaseUrl\s+string\s*=\s*'https:\/\/\$\{functionApp\.properties\.defaultHostName\}\/hq\/v1'/m);
    expect(main).toMatch(/^\s*output\s+consoleUrl\s+string\s*=\s*'https:\/\/\$\{functionApp\.properties\.defaultHostName\}\/console\/'/m);
    const hostJson = JSON.parse(readFileSync(join(root, 'host.json'), 'utf8')) as {
      extensions?: { http?: { routePrefix?: string } };
    };
    // No host prefix: every function carries its full route, the partner API's below pos/v1, the
    // HQ API's below hq/v1, and the HQ console's static files below console/.
    expect(hostJson.extensions?.http?.routePrefix).toBe('');
    const { functionTable, partnerApiBase } = await import('../../src/functions/functionTable.js');
    const { hqApiBase } = await import('../../src/hq/http/hqFunctions.js');
    expect([partnerApiBase, hqApiBase]).toEqual(['pos/v1', 'hq/v1']);
    for (const fn of functionTable) {
      if (fn.trigger === 'http')
        expect(
          [partnerApiBase, hqApiBase, 'console'].some((base) => fn.route.startsWith(`${base}/`)),
          fn.name,
        ).toBe(true);
    }
  });

  it('every param has a description', () => {
    for (const [file, text] of templates) {
      for (const m of matches(text, /^\s*param\s+(\w+)\b/gm)) {
        const before = text.slice(0, m.index);
        const declarationStart = Math.max(before.lastIndexOf('\nparam '), before.lastIndexOf('\nimport '), 0);
        const decorators = before.slice(declarationStart);
        expect(decorators, `${file}: param ${m[1]} has no @description`).toMatch(/@description\(/);
      }
    }
  });
});

describe('function table', () => {
  // Imported lazily so that, while the table is missing, only these checks fail.
  const load = async (): Promise<readonly FunctionDefinition[]> => {
    const module: { functionTable: readonly FunctionDefinition[] } = await import('../../src/functions/functionTable.js');
    return module.functionTable;
  };
  const isHttp = (f: FunctionDefinition): f is HttpFunctionDefinition => f.trigger === 'http';

  it('every HTTP function but health, the console page and the published API documentation requires a function key', async () => {
    const table = await load();
    // The console page is static files (its data comes from /hq/v1 with an operator key); the OpenAPI
    // document and the docs page describe the contract, which is public. None of them holds data.
    const anonymous = new Set(['health', 'console', 'partnerOpenApi', 'partnerDocs', 'partnerDocsAsset']);
    const open = table.filter(isHttp).filter((f) => !anonymous.has(f.name) && f.authLevel !== 'function');
    expect(open.map((f) => `${f.name} (${f.route}): ${f.authLevel}`)).toEqual([]);
  });

  it('the console page is anonymous and read-only: its data comes from the HQ API with a key', async () => {
    const page = (await load()).filter(isHttp).filter((f) => f.name === 'console');
    expect(page.map((f) => ({ route: f.route, methods: f.methods, authLevel: f.authLevel }))).toEqual([
      { route: 'console/{*path}', methods: ['GET'], authLevel: 'anonymous' },
    ]);
  });

  it('health exists and is anonymous', async () => {
    const health = (await load()).filter(isHttp).filter((f) => f.name === 'health');
    expect(health).toHaveLength(1);
    expect(health[0]!.authLevel).toBe('anonymous');
  });

  it('queue triggers use the storage connection and queues the Bicep creates', async () => {
    for (const f of await load()) {
      if (f.trigger !== 'storageQueue') continue;
      expect(f.connection, f.name).toBe(settingNames.storage);
      expect(Object.values(queueNames), f.name).toContain(f.queueName);
    }
  });
});

/**
 * The partner kit as a partner gets it: built and packed (scripts/buildPartnerKit.mjs, as
 * `npm run kit:pack` does), installed from the tarball into an empty folder with no registry, then
 * used there the way the kit's README says: `npx pos-validate` on files, an ES module script that
 * imports the client and the webhook verifier by the package's name, and a TypeScript file checked
 * against the package's declarations. Nothing of the repository is reachable from that folder.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceMaxBodyBytes } from '../../packages/partner-kit/src/bodyLimit.js';
import { validatePayload } from '../../packages/partner-kit/src/validatePayload.js';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import { signWebhook } from '../../src/events/signWebhook.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { controlTotals } from '../e2e/support/storeDayKit.js';
import { buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { buildUsdTaxExcludedRecord, fixtureBusinessDate, usdStoreId, USD } from '../fixtures/tradeRecordFixtures.js';
import { partnerWithStores, tradeBatch } from '../support/httpScenario.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { mappingsBodyOfSize } from './support/largeMappings.js';

const run = promisify(execFile);
const root = findProjectRoot();
const work = mkdtempSync(path.join(tmpdir(), 'packed-kit-'));
const partnerFolder = path.join(work, 'partner');
const metafileFile = path.join(work, 'metafile.json');
const packFolder = path.join(work, 'pack');

/** Child processes get no npm settings of the run that started the tests. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}
async function inPartnerFolder(file: string, args: readonly string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(file, [...args], { cwd: partnerFolder, env, encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Type-checks one file of the partner folder against the installed kit's declarations, strictly. */
async function typeCheckInPartnerFolder(file: string): Promise<Outcome> {
  const config = `tsconfig.${path.basename(file, '.mts')}.json`;
  writeFileSync(
    path.join(partnerFolder, config),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        // The build already refuses declarations that name a file or package the kit lacks;
        // checking all of @types/node again would only cost time.
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules', '@types')],
      },
      files: [file],
    }),
  );
  return inPartnerFolder(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config]);
}

let service: TestService;
let partner: TestPartner;
let tarball: string;
beforeAll(async () => {
  const built = run(
    process.execPath,
    [path.join(root, 'scripts', 'buildPartnerKit.mjs'), '--metafile', metafileFile, '--pack', packFolder],
    {
      cwd: root,
      env,
      encoding: 'utf8',
    },
  );
  service = await startTestService();
  partner = await partnerWithStores(service);
  const { stdout } = await built;
  tarball = /^(\S+\.tgz):/m.exec(stdout)?.[1] ?? '';
  expect(tarball, stdout).toMatch(/pos-ingestion-partner-kit-\d+\.\d+\.\d+\.tgz$/);
  mkdirSync(partnerFolder);
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: partnerFolder, env });
}, 180_000);
afterAll(async () => {
  await service.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the kit bundle', () => {
  it('holds the contract code and no Azure SDK, storage or HQ code, and imports nothing but Node built-ins', () => {
    const metafile = JSON.parse(readFileSync(metafileFile, 'utf8')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
    };
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((input) => input.includes('@azure/'))).toEqual([]);
    // The kit reaches the service only for the contract: its model, rules, errors and webhook signatures.
    const serviceFolders = new Set(inputs.filter((input) => input.startsWith('src/')).map((input) => input.split('/')[1]));
    expect([...serviceFolders].filter((folder) => !['domain', 'errors', 'events', 'http', 'bodyParsing'].includes(folder!))).toEqual([]);
    expect(inputs).toContain('schemas/trade-records.schema.json');
    expect(inputs).toContain('src/bodyParsing/createBodyValidator.ts');
    // The body limit, from the settings file the OpenAPI document states it from.
    expect(inputs).toContain('local.settings.sample.json');
    const external = Object.values(metafile.outputs).flatMap((output) =>
      output.imports.filter((i) => i.external === true).map((i) => i.path),
    );
    expect(external.filter((specifier) => !specifier.startsWith('node:'))).toEqual([]);
  });

  it('packs into a tarball of the built kit alone, with no dependencies to install', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball], { encoding: 'utf8' });
    const entries = stdout.split('\n').filter((line) => line !== '');
    expect(entries.filter((entry) => !/^package\/(package\.json|README\.md|dist\/.+\.(js|d\.ts|json|txt))$/.test(entry))).toEqual([]);
    expect(entries).toEqual(
      expect.arrayContaining([
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/pos-validate.js',
        'package/dist/THIRD-PARTY-LICENSES.txt',
      ]),
    );
    const manifest = JSON.parse(
      readFileSync(path.join(partnerFolder, 'node_modules', '@pos-ingestion', 'partner-kit', 'package.json'), 'utf8'),
    ) as {
      dependencies?: unknown;
      bin: Record<string, string>;
    };
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ 'pos-validate': 'dist/pos-validate.js' });
  });
});

describe('the installed kit', () => {
  const valid = tradeBatch();
  const invalid = tradeBatch();
  delete (invalid as Partial<typeof invalid>).store_id;
  (invalid.trade_records[0]!.items[0] as { quantity: unknown }).quantity = 2;

  it('runs pos-validate: exit 0 for a body the service accepts, 1 with the service’s code and paths for one it refuses', async () => {
    writeFileSync(path.join(partnerFolder, 'valid.json'), JSON.stringify(valid));
    writeFileSync(path.join(partnerFolder, 'invalid.json'), JSON.stringify(invalid));

    const accepted = await inPartnerFolder('npx', ['--no', 'pos-validate', 'trade-records', 'valid.json']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/^OK: the service would accept this body \(record_count 3,/);
    expect((await service.call(partner, 'POST', 'trade-records', valid)).status).toBe(202);

    const refused = await inPartnerFolder('npx', ['--no', 'pos-validate', 'trade-records', 'invalid.json']);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout).toMatch(/^400 INVALID_PAYLOAD: /);

    const refusedJson = await inPartnerFolder('npx', ['--no', 'pos-validate', 'trade-records', 'invalid.json', '--json']);
    expect(refusedJson.code).toBe(1);
    const offline = JSON.parse(refusedJson.stdout) as { error: { code: string; details: unknown[] } };
    const served = await service.call(partner, 'POST', 'trade-records', invalid);
    const online = served.body as { error: { code: string; details: unknown[] } };
    expect(served.status).toBe(400);
    expect(offline.error.code).toBe(online.error.code);
    expect(offline.error.details).toEqual(online.error.details);
    expect(offline.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/store_id' }),
        expect.objectContaining({ path: '/trade_records/0/items/0/quantity' }),
      ]),
    );
    // The bundled validator is the one in the repository, not a copy that could drift.
    const inRepository = validatePayload('trade-records', readFileSync(path.join(partnerFolder, 'invalid.json')));
    expect(inRepository.ok ? undefined : inRepository.body.error.details).toEqual(offline.error.details);
  });

  it('runs pos-validate on a file a byte over the body limit: exit 1, 413 PAYLOAD_TOO_LARGE with the size and the limit', async () => {
    writeFileSync(path.join(partnerFolder, 'large.json'), mappingsBodyOfSize(serviceMaxBodyBytes + 1));
    const refused = await inPartnerFolder('npx', ['--no', 'pos-validate', 'mappings', 'large.json']);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout).toBe(
      `413 PAYLOAD_TOO_LARGE: The request body is ${serviceMaxBodyBytes + 1} bytes, more than the limit of ${serviceMaxBodyBytes} bytes.\n`,
    );
  });

  it('imports PosClient and the verifier by package name: a day reaches the service, a signature checks out', async () => {
    const client = await service.createPartner({ stores: [usdStoreId] });
    const records = [buildUsdTaxExcludedRecord({ seq: 0 }), buildUsdTaxExcludedRecord({ seq: 1 })];
    const secret = WebhookSecret.generate();
    const body = JSON.stringify({ type: 'reconciliation.completed', data: { store_id: usdStoreId } });
    const input = {
      baseUrl: service.baseUrl,
      apiKey: client.key,
      store: buildUsdStore(usdStoreId),
      records,
      close: {
        store_id: usdStoreId,
        business_date: fixtureBusinessDate,
        currency: 'USD',
        closed_at: '2026-03-02T03:55:00-05:00',
        ...controlTotals(USD, records, { mapping: {} }),
      },
      webhook: {
        secret: secret.reveal(),
        body,
        headers: signWebhook([secret], { id: `msg_${randomUUID().replaceAll('-', '')}`, timestamp: Math.floor(Date.now() / 1000), body }),
      },
    };
    writeFileSync(path.join(partnerFolder, 'input.json'), JSON.stringify(input));
    writeFileSync(
      path.join(partnerFolder, 'partner.mjs'),
      `import { readFileSync } from 'node:fs';
import { PosClient, WebhookSecret, verifyWebhook } from '@pos-ingestion/partner-kit';

const input = JSON.parse(readFileSync('input.json', 'utf8'));
const client = new PosClient({ baseUrl: input.baseUrl, apiKey: input.apiKey });
await client.uploadStores([input.store]);
const day = await client.pushDay(input.records, input.close);
const secrets = [WebhookSecret.parse(input.webhook.secret)];
const now = new Date();
const verified = verifyWebhook({ headers: input.webhook.headers, body: input.webhook.body, secrets, now });
const tampered = verifyWebhook({ headers: input.webhook.headers, body: input.webhook.body + ' ', secrets, now });
console.log(JSON.stringify({ day, verified: verified.ok, tampered }));
`,
    );

    const result = await inPartnerFolder(process.execPath, ['partner.mjs']);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as {
      day: { batches: { status: string; record_count: number }[]; close: { status: string } };
      verified: boolean;
      tampered: { ok: boolean; reason: string };
    };
    expect(printed.day.batches.map((ack) => [ack.status, ack.record_count])).toEqual([['ACCEPTED', 2]]);
    expect(printed.day.close.status).toBe('ACCEPTED');
    expect(printed.verified).toBe(true);
    expect(printed.tampered).toEqual({ ok: false, reason: 'NO_MATCHING_SIGNATURE' });
  });

  it('gives TypeScript the declarations of its API: contract types, client, validator and verifier', async () => {
    writeFileSync(
      path.join(partnerFolder, 'partner.mts'),
      `import { PosClient, PosRequestError, PushDayError, WebhookSecret, validatePayload, verifyWebhook } from '@pos-ingestion/partner-kit';
import type { BatchAcknowledgement, DailyCloseTotals, TradeRecordsBody, ValidationOutcome } from '@pos-ingestion/partner-kit';

export const client: PosClient = new PosClient({ baseUrl: 'https://pos.example.com/pos/v1', apiKey: 'key' });
export const outcome: ValidationOutcome = validatePayload('trade-records', new Uint8Array());
export const code: string | undefined = outcome.ok ? undefined : outcome.body.error.code;
export const records: TradeRecordsBody['trade_records'] = [];
export async function send(close: DailyCloseTotals): Promise<readonly BatchAcknowledgement[]> {
  try {
    return (await client.pushDay(records, close)).batches;
  } catch (error) {
    if (error instanceof PushDayError && error.cause instanceof PosRequestError) return error.acknowledged;
    throw error;
  }
}
const secret = WebhookSecret.parse('whsec_x');
export const verified = secret && verifyWebhook({ headers: {}, body: '', secrets: [secret], now: new Date() }).ok;
// @ts-expect-error the kit knows its endpoints; a typo is a type error, which proves the types are not any
validatePayload('trade-record', new Uint8Array());
`,
    );
    const checked = await typeCheckInPartnerFolder('partner.mts');
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });

  it("compiles its README's TypeScript, read in order as one file, against its declarations", async () => {
    const readme = readFileSync(path.join(root, 'packages', 'partner-kit', 'README.md'), 'utf8');
    const snippets = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
    expect(snippets.length).toBeGreaterThanOrEqual(4);
    // A partner pastes the snippets one after another: a later one may use what an earlier declared.
    writeFileSync(path.join(partnerFolder, 'readme.mts'), `${snippets.join('\n')}\nexport {};\n`);
    const checked = await typeCheckInPartnerFolder('readme.mts');
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });
});

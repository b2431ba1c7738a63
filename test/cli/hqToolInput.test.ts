import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDefaultHttpClient, type HttpClient } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HqTool } from '../../src/cli/HqTool.js';
import { armHostKeys } from '../../src/cli/HostKeys.js';
import { printable } from '../../src/cli/printable.js';
import { storageEndpoint, type StorageEndpoint } from '../../src/cli/storageEndpoint.js';
import { startTestService, type TestService } from '../support/startTestService.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const freshId = (): string => `hqi-${randomUUID().slice(0, 8)}`;

describe('command line', () => {
  it('refuses a misspelt or foreign option instead of ignoring it (exit 2)', async () => {
    const id = freshId();
    for (const argv of [
      ['partner', 'create', id, '--nmae', 'Acme'],
      ['partner', 'create', id, '--expires', '2030-01-01'],
      ['key', 'list', id, '--function-app', 'x'],
      ['partner', 'create', id, '--name'],
    ]) {
      const result = await service.hq(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err.join('\n')).toMatch(/^error: /);
    }
    expect((await service.hq('partner', 'list')).out.join('\n')).not.toContain(id);
  });

  it('keeps every "=" of --name=a=b in the value', async () => {
    const id = freshId();
    expect((await service.hq('partner', 'create', id, '--name=a=b')).code).toBe(0);
    const line = (await service.hq('partner', 'list')).out.find((l) => l.startsWith(`${id}\t`));
    expect(line?.split('\t')[3]).toBe('a=b');
  });

  it('prints untrusted text escaped: no escape sequence or line break reaches the terminal', async () => {
    const id = freshId();
    const name = 'Evil\u001b[2J\u001b]0;pwned\u0007\r\nFAKE\tLINE\u202e';
    expect((await service.hq('partner', 'create', id, '--name', name)).code).toBe(0);
    const listed = (await service.hq('partner', 'list')).out;
    const line = listed.find((l) => l.startsWith(`${id}\t`))!;
    // Tabs separate the columns; no other control character or bidi override reaches the terminal.
    expect(line.replaceAll('\t', '')).not.toMatch(/[\p{Cc}\u202e]/u);
    expect(line).toContain('Evil\\x1b[2J\\x1b]0;pwned\\x07\\x0d\\x0aFAKE\\x09LINE\\u{202e}');
    expect(listed.some((l) => l.startsWith('FAKE'))).toBe(false);
    const unknown = await service.hq('key', 'list', 'no\u001b[31mred');
    expect(unknown.err.join('\n')).toContain('no\\x1b[31mred');
  });

  it('escapes backslashes so an escape cannot be faked', () => {
    expect(printable('a\\x1b')).toBe('a\\\\x1b');
    expect(printable('plain Café 東京')).toBe('plain Café 東京');
  });

  it('treats partner ids case-insensitively: a case-only twin is refused, any case finds the partner', async () => {
    const id = freshId();
    expect((await service.hq('partner', 'create', id)).code).toBe(0);
    const twin = await service.hq('partner', 'create', id.toUpperCase());
    expect(twin.code).toBe(1);
    expect(twin.err.join('\n')).toMatch(/already exists/);
    expect((await service.hq('store', 'register', id.toUpperCase(), 'S-1')).code).toBe(0);
    expect((await service.hq('store', 'list', id)).out.slice(1).map((line) => line.split('\t')[0])).toEqual(['S-1']);
    const issued = await service.hq('key', 'issue', id.toUpperCase());
    expect(issued.code).toBe(0);
    expect(issued.out[0]).toContain(`partner ${id}`);
  });
});

/**
 * The HQ tool with the given settings, its host keys set through the management API of the
 * stand-in at `standInUrl`, and what it printed.
 */
function hqToolAgainst(
  standInUrl: string,
  settings: Readonly<Record<string, string>>,
  endpoint?: StorageEndpoint,
): { tool: HqTool; out: string[]; err: string[] } {
  // The client speaks HTTPS to its endpoint (bearer tokens need TLS); here its requests go to the stand-in.
  const base = createDefaultHttpClient();
  const toStandIn: HttpClient = {
    sendRequest: (request) => {
      request.url = request.url.replace(/^https:\/\/management\.example\.test/, standInUrl);
      request.allowInsecureConnection = true;
      return base.sendRequest(request);
    },
  };
  const credential = { getToken: () => Promise.resolve({ token: 'operator-token', expiresOnTimestamp: Date.now() + 3_600_000 }) };
  const out: string[] = [];
  const err: string[] = [];
  const tool = new HqTool(
    service.services.storage,
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    {
      settings,
      ...(endpoint === undefined ? {} : { storageEndpoint: endpoint }),
      hostKeys: (target) => armHostKeys(target, credential, { endpoint: 'https://management.example.test', httpClient: toStandIn }),
    },
  );
  return { tool, out, err };
}

/** A stand-in of the App Service management endpoint that records requests and keeps host keys. */
async function startManagementStandIn(): Promise<{
  url: string;
  requests: { method: string; path: string; query: URLSearchParams; body: unknown; authorization: string | undefined }[];
  keys: Map<string, string>;
  close(): Promise<void>;
}> {
  const requests: { method: string; path: string; query: URLSearchParams; body: unknown; authorization: string | undefined }[] = [];
  const keys = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        body,
        authorization: req.headers.authorization,
      });
      const match =
        /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Web\/sites\/([^/]+)\/host\/default\/functionKeys\/([^/]+)$/.exec(
          url.pathname,
        );
      if (!match || !url.searchParams.get('api-version')) {
        res.writeHead(400).end();
        return;
      }
      const name = decodeURIComponent(match[4]!);
      if (req.method === 'PUT') {
        // As Azure answers: the key only counts wrapped in `properties`, whatever the API's definition says.
        const value = (body as { properties?: { value?: unknown } } | undefined)?.properties?.value;
        if (typeof value !== 'string') {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ Code: 'BadRequest', Message: 'Properties object is not present in the request body.' }));
          return;
        }
        const created = !keys.has(name);
        keys.set(name, value);
        res.writeHead(created ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ properties: { name, value } }));
      } else if (req.method === 'DELETE') {
        const existed = keys.delete(name);
        res.writeHead(existed ? 204 : 404).end();
      } else {
        res.writeHead(405).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    keys,
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

describe('host keys in Azure', () => {
  it('key issue and key revoke with --function-app set and delete the host key through the management API', async () => {
    const standIn = await startManagementStandIn();
    const { tool, out, err } = hqToolAgainst(standIn.url, { AZURE_SUBSCRIPTION_ID: '00000000-0000-0000-0000-00000000abcd' });
    try {
      const id = freshId();
      expect(await tool.run(['partner', 'create', id])).toBe(0);
      expect(await tool.run(['key', 'issue', id, '--function-app', 'pos-func', '--resource-group', 'rg-pos']), err.join('\n')).toBe(0);
      const key = out.at(-1)!;
      const keyId = /key (key-[0-9a-f]+) issued/.exec(out.join('\n'))![1]!;
      const hostKey = `${id}-${keyId}`;

      const put = standIn.requests[0]!;
      expect(put.method).toBe('PUT');
      expect(put.path).toBe(
        `/subscriptions/00000000-0000-0000-0000-00000000abcd/resourceGroups/rg-pos/providers/Microsoft.Web/sites/pos-func/host/default/functionKeys/${hostKey}`,
      );
      expect(put.query.get('api-version')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(put.body).toEqual({ properties: { name: hostKey, value: key } });
      expect(put.authorization).toBe('Bearer operator-token');
      expect(standIn.keys.get(hostKey)).toBe(key);
      // The key also works against the service (its hash is stored).
      expect((await service.call({ key }, 'GET', 'reference/transaction-types')).status).toBe(200);
      expect(out.join('\n')).toMatch(/up to a minute/);

      expect(await tool.run(['key', 'revoke', id.toUpperCase(), keyId, '--function-app', 'pos-func', '--resource-group', 'rg-pos'])).toBe(
        0,
      );
      const del = standIn.requests[1]!;
      expect(del.method).toBe('DELETE');
      expect(del.path).toBe(put.path);
      expect(del.query.get('api-version')).toBe(put.query.get('api-version'));
      expect(standIn.keys.has(hostKey)).toBe(false);

      // A half-named target is wrong usage; nothing is sent.
      expect(await tool.run(['key', 'issue', id, '--function-app', 'pos-func'])).toBe(2);
      expect(standIn.requests).toHaveLength(2);
    } finally {
      await standIn.close();
    }
    expect(err.filter((line) => !line.includes('--function-app and --resource-group'))).toEqual([]);
  });

  it('operator issue and operator revoke with --function-app keep the hq-<name>-<key_id> host key in step', async () => {
    const standIn = await startManagementStandIn();
    const { tool, out, err } = hqToolAgainst(standIn.url, {});
    const azure = ['--function-app', 'pos-func', '--resource-group', 'rg-pos', '--subscription', 'sub-1'];
    try {
      const name = freshId();
      expect(await tool.run(['operator', 'issue', name, '--role', 'admin', ...azure]), err.join('\n')).toBe(0);
      const key = out.at(-1)!;
      const keyId = /operator key (op-[0-9a-f]+) issued/.exec(out.join('\n'))![1]!;
      const hostKey = `hq-${name}-${keyId}`;
      expect(standIn.requests[0]).toMatchObject({ method: 'PUT', body: { properties: { name: hostKey, value: key } } });
      expect(standIn.requests[0]!.path).toMatch(new RegExp(`/sites/pos-func/host/default/functionKeys/${hostKey}$`));
      expect((await service.callHost({ key }, 'GET', 'hq/v1/whoami')).status).toBe(200);

      expect(await tool.run(['operator', 'revoke', name, keyId, ...azure]), err.join('\n')).toBe(0);
      expect(standIn.requests[1]).toMatchObject({ method: 'DELETE', path: standIn.requests[0]!.path });
      expect(standIn.keys.has(hostKey)).toBe(false);
      expect((await service.callHost({ key }, 'GET', 'hq/v1/whoami')).status).toBe(401);
    } finally {
      await standIn.close();
    }
  });

  it('stores nothing when the host key cannot be set', async () => {
    const credential = { getToken: () => Promise.resolve({ token: 't', expiresOnTimestamp: Date.now() + 3_600_000 }) };
    const failing: HttpClient = {
      sendRequest: (request) =>
        Promise.resolve({
          request,
          status: 403,
          headers: request.headers,
          bodyAsText: JSON.stringify({ error: { code: 'AuthorizationFailed', message: 'The client has no authorization.' } }),
        }),
    };
    const out: string[] = [];
    const err: string[] = [];
    const tool = new HqTool(
      service.services.storage,
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {
        hostKeys: (target) =>
          armHostKeys(target, credential, {
            endpoint: 'https://management.example.test',
            httpClient: failing,
            retryOptions: { maxRetries: 0 },
          }),
      },
    );
    const id = freshId();
    expect(await tool.run(['partner', 'create', id])).toBe(0);
    expect(await tool.run(['key', 'issue', id, '--function-app', 'a', '--resource-group', 'b', '--subscription', 's'])).toBe(1);
    expect(err.join('\n')).toMatch(
      /^error: request failed: could not set host key \S+: the management API answered 403 \(AuthorizationFailed: The client has no authorization\.\)/,
    );
    // No key was issued: nothing printed could be used as one.
    expect(out.filter((line) => /^[A-Za-z0-9_-]{32,}$/.test(line))).toEqual([]);
    out.length = 0;
    expect(await tool.run(['key', 'list', id])).toBe(0);
    expect(out).toEqual(['key_id\tstatus\tcreated\texpires']);
  });
});

describe('the storage the tool acts on', () => {
  /** The tool as main.ts builds it: told which storage it acts on (here, the test's emulator). */
  const toolOnEmulator = (standInUrl: string, settings: Readonly<Record<string, string>> = {}) =>
    hqToolAgainst(standInUrl, settings, storageEndpoint(service.services.storage));

  it('names the storage on stderr before a command, the emulator as such; stdout is unchanged', async () => {
    const standIn = await startManagementStandIn();
    try {
      const { tool, out, err } = toolOnEmulator(standIn.url);
      const id = freshId();
      expect(await tool.run(['partner', 'create', id])).toBe(0);
      expect(await tool.run(['key', 'issue', id])).toBe(0);
      // One line per command, and nothing else.
      expect(err).toHaveLength(2);
      for (const line of err) expect(line).toMatch(/^storage: http:\/\/127\.0\.0\.1:\d+\/\S+ \(local storage emulator\)$/);
      expect(out.at(-1)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    } finally {
      await standIn.close();
    }
  });

  it('refuses every key command naming a function app when the storage is the local emulator: no host key, no stored key', async () => {
    const standIn = await startManagementStandIn();
    try {
      const { tool, out, err } = toolOnEmulator(standIn.url, { AZURE_SUBSCRIPTION_ID: 'sub-1' });
      const id = freshId();
      const name = freshId();
      expect(await tool.run(['partner', 'create', id])).toBe(0);
      expect(await tool.run(['key', 'issue', id])).toBe(0);
      const keyId = /key (key-[0-9a-f]+) issued/.exec(out.join('\n'))![1]!;
      expect(await tool.run(['operator', 'issue', name])).toBe(0);
      const opKeyId = /operator key (op-[0-9a-f]+) issued/.exec(out.join('\n'))![1]!;
      const azure = ['--function-app', 'pos-func', '--resource-group', 'rg-pos'];
      for (const argv of [
        ['key', 'issue', id, ...azure],
        ['key', 'revoke', id, keyId, ...azure],
        ['operator', 'issue', freshId(), ...azure],
        ['operator', 'revoke', name, opKeyId, ...azure],
      ]) {
        err.length = 0;
        out.length = 0;
        expect(await tool.run(argv), argv.join(' ')).toBe(1);
        expect(out, argv.join(' ')).toEqual([]);
        expect(err.at(-1), argv.join(' ')).toMatch(
          /^error: function app pos-func is in Azure, but the storage settings resolve to the local storage emulator \(http:\/\/127\.0\.0\.1:\d+\/\S+\); nothing was changed\. Export AzureWebJobsStorage__blobServiceUri, AzureWebJobsStorage__queueServiceUri, AzureWebJobsStorage__tableServiceUri and REPORTS_CONTAINER/,
        );
      }
      // POS_FUNCTION_APP in the environment names it as well as the option does.
      const fromSettings = toolOnEmulator(standIn.url, {
        POS_FUNCTION_APP: 'pos-func',
        POS_RESOURCE_GROUP: 'rg-pos',
        AZURE_SUBSCRIPTION_ID: 's',
      });
      expect(await fromSettings.tool.run(['key', 'issue', id])).toBe(1);
      expect(fromSettings.out).toEqual([]);

      expect(standIn.requests).toEqual([]);
      out.length = 0;
      expect(await tool.run(['key', 'list', id])).toBe(0);
      expect(out.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${keyId}\\tACTIVE\\t`))]);
      out.length = 0;
      expect(await tool.run(['operator', 'list'])).toBe(0);
      expect(out.filter((l) => l.startsWith(`${name}\t`))).toEqual([
        expect.stringMatching(new RegExp(`^${name}\\t${opKeyId}\\tviewer\\tACTIVE\\t`)),
      ]);
    } finally {
      await standIn.close();
    }
  });
});

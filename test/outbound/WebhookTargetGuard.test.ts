import { describe, expect, it } from 'vitest';
import { systemResolver, type HostResolver } from '../../src/outbound/HostResolver.js';
import { WebhookTargetGuard } from '../../src/outbound/WebhookTargetGuard.js';
import { anyString } from '../support/matchers.js';

/** A resolver that answers from a table and counts its calls; unknown names do not resolve. */
function tableResolver(table: Record<string, readonly string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (hostname: string): Promise<readonly string[]> => {
    calls.push(hostname);
    const addresses = table[hostname];
    return addresses ? Promise.resolve(addresses) : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
  };
  return Object.assign(resolve, { calls });
}

const resolver = tableResolver({
  'hooks.partner.example': ['93.184.216.34'],
  'internal.partner.example': ['10.20.30.40'],
  'metadata.partner.example': ['169.254.169.254'],
  'mixed.partner.example': ['93.184.216.34', '192.168.0.10'],
  'v6private.partner.example': ['fd12::1'],
  'mapped.partner.example': ['::ffff:10.0.0.1'],
  'nat64.partner.example': ['64:ff9b::c0a8:1'],
});
const guard = new WebhookTargetGuard({ allowPrivate: false, resolve: resolver });

describe('registration refuses targets that are not public https', () => {
  it.each([
    ['http://169.254.169.254/', 'NOT_HTTPS'],
    ['https://169.254.169.254/latest/meta-data/', 'NOT_PUBLIC'],
    ['https://10.0.0.1/', 'NOT_PUBLIC'],
    ['https://[::ffff:127.0.0.1]/', 'NOT_PUBLIC'],
    ['https://[::1]/', 'NOT_PUBLIC'],
    ['https://127.0.0.1:8443/', 'NOT_PUBLIC'],
    ['https://0x7f000001/', 'NOT_PUBLIC'],
    ['https://[fe80::1]/', 'NOT_PUBLIC'],
    ['https://[64:ff9b::a00:1]/', 'NOT_PUBLIC'],
    ['https://100.64.1.1/', 'NOT_PUBLIC'],
    ['https://168.63.129.16/', 'NOT_PUBLIC'],
    ['https://internal.partner.example/hooks', 'NOT_PUBLIC'],
    ['https://metadata.partner.example/', 'NOT_PUBLIC'],
    ['https://mixed.partner.example/', 'NOT_PUBLIC'],
    ['https://v6private.partner.example/', 'NOT_PUBLIC'],
    ['https://mapped.partner.example/', 'NOT_PUBLIC'],
    ['https://nat64.partner.example/', 'NOT_PUBLIC'],
    ['https://nowhere.partner.example/', 'UNRESOLVABLE'],
  ])('%s → %s', async (url, reason) => {
    expect(await guard.check(url)).toMatchObject({ ok: false, reason });
  });

  it('says the same of a name that does not resolve as of one that resolves to a private address', async () => {
    const nowhere = await guard.check('https://nowhere.partner.example/');
    const internal = await guard.check('https://internal.partner.example/');
    expect([nowhere, internal]).toEqual([
      { ok: false, reason: 'UNRESOLVABLE', message: anyString() },
      { ok: false, reason: 'NOT_PUBLIC', message: anyString() },
    ]);
    const [said, saidToo] = [nowhere, internal].map((answer) => ('message' in answer ? answer.message : undefined));
    expect(said).toBe(saidToo);
  });

  it('takes a host name that resolves to public addresses only, and returns what it checked', async () => {
    const checked = await guard.check('https://hooks.partner.example/pos?x=1');
    expect(checked).toMatchObject({ ok: true, addresses: ['93.184.216.34'] });
  });

  it('does not resolve an address written in the URL', async () => {
    const counting = tableResolver({});
    const literalGuard = new WebhookTargetGuard({ allowPrivate: false, resolve: counting });
    expect(await literalGuard.check('https://93.184.216.34/')).toMatchObject({ ok: true, addresses: ['93.184.216.34'] });
    expect(counting.calls).toEqual([]);
  });

  it('refuses localhost as the operating system resolves it', async () => {
    const system = new WebhookTargetGuard({ allowPrivate: false, resolve: systemResolver });
    expect(await system.check('https://localhost/')).toMatchObject({ ok: false, reason: 'NOT_PUBLIC' });
  });
});

describe('with private targets allowed (local development, tests)', () => {
  const relaxed = new WebhookTargetGuard({ allowPrivate: true, resolve: resolver });

  it('takes loopback and private receivers, over http too', async () => {
    expect((await relaxed.check('http://127.0.0.1:9000/hooks')).ok).toBe(true);
    expect((await relaxed.check('https://internal.partner.example/hooks')).ok).toBe(true);
  });

  it('still refuses the metadata endpoint and plain http to a public address', async () => {
    expect(await relaxed.check('http://169.254.169.254/')).toMatchObject({ ok: false, reason: 'NOT_PUBLIC' });
    expect(await relaxed.check('https://metadata.partner.example/')).toMatchObject({ ok: false, reason: 'NOT_PUBLIC' });
    expect(await relaxed.check('http://hooks.partner.example/')).toMatchObject({ ok: false, reason: 'NOT_HTTPS' });
  });
});

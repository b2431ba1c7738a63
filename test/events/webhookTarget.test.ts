import { describe, expect, it } from 'vitest';
import { checkTargetAddresses } from '../../src/events/checkTargetAddresses.js';
import { maxWebhookUrlLength, parseWebhookUrl, type WebhookUrl } from '../../src/events/parseWebhookUrl.js';

const strict = { allowPrivate: false };
const relaxed = { allowPrivate: true };

function target(raw: string, options = strict): WebhookUrl {
  const parsed = parseWebhookUrl(raw, options);
  if (!parsed.ok) throw new Error(`${raw} does not parse: ${parsed.message}`);
  return parsed.target;
}

describe('webhook URL syntax', () => {
  it('takes an https URL with host, port, path and query', () => {
    const t = target('https://hooks.partner.example:8443/pos/events?tenant=a');
    expect(t.host).toBe('hooks.partner.example');
    expect(t.isAddress).toBe(false);
    expect(t.url.port).toBe('8443');
    expect(`${t.url.pathname}${t.url.search}`).toBe('/pos/events?tenant=a');
  });

  it('sees through the forms URL parsing normalises: IPv6 brackets, hex and short IPv4', () => {
    expect(target('https://[::ffff:127.0.0.1]/')).toMatchObject({ host: '::ffff:7f00:1', isAddress: true });
    expect(target('https://0x7f.1/')).toMatchObject({ host: '127.0.0.1', isAddress: true });
    expect(target('https://2130706433/')).toMatchObject({ host: '127.0.0.1', isAddress: true });
  });

  it.each([
    ['http://hooks.partner.example/', 'NOT_HTTPS'],
    ['ftp://hooks.partner.example/', 'NOT_HTTPS'],
    ['file:///etc/passwd', 'NOT_HTTPS'],
    ['hooks.partner.example/path', 'INVALID_URL'],
    ['/relative/path', 'INVALID_URL'],
    ['https://user:pass@hooks.partner.example/', 'INVALID_URL'],
    ['https://hooks.partner.example/#frag', 'INVALID_URL'],
    ['https://hooks.partner.example/#', 'INVALID_URL'],
    ['https://8.8.8.8:0/', 'INVALID_URL'],
    ['https://hooks.partner.example:00/', 'INVALID_URL'],
    [' https://hooks.partner.example/', 'INVALID_URL'],
    ['https://hooks.partner.example/a\tb', 'INVALID_URL'],
    ['https://hooks.partner.example/a\nb', 'INVALID_URL'],
    [`https://hooks.partner.example/${'a'.repeat(maxWebhookUrlLength)}`, 'INVALID_URL'],
    ['', 'INVALID_URL'],
  ])('refuses %j (%s)', (raw, reason) => {
    expect(parseWebhookUrl(raw, strict)).toMatchObject({ ok: false, reason });
  });

  it('takes plain http only where private targets are allowed', () => {
    expect(parseWebhookUrl('http://127.0.0.1:8080/hooks', relaxed).ok).toBe(true);
    expect(parseWebhookUrl('http://127.0.0.1:8080/hooks', strict)).toMatchObject({ ok: false, reason: 'NOT_HTTPS' });
  });
});

describe('target addresses', () => {
  const named = target('https://hooks.partner.example/');

  it('pass when every address is public', () => {
    expect(checkTargetAddresses(named, ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'], strict)).toEqual({ ok: true });
  });

  it('fail when any one address is not public, whatever the order', () => {
    expect(checkTargetAddresses(named, ['93.184.216.34', '10.1.2.3'], strict)).toMatchObject({ ok: false, reason: 'NOT_PUBLIC' });
    expect(checkTargetAddresses(named, ['fd00::1', '93.184.216.34'], strict)).toMatchObject({ ok: false, reason: 'NOT_PUBLIC' });
  });

  it('fail with no address at all', () => {
    expect(checkTargetAddresses(named, [], strict)).toMatchObject({ ok: false, reason: 'UNRESOLVABLE' });
  });

  it('do not tell what a host name resolved to, but name the class of an address the partner wrote', () => {
    const byName = checkTargetAddresses(named, ['10.1.2.3'], strict);
    expect(byName).toMatchObject({ message: 'must resolve to public addresses only' });
    const literal = checkTargetAddresses(target('https://10.1.2.3/'), ['10.1.2.3'], strict);
    expect(literal).toMatchObject({ message: 'must be a public address (this one is private)' });
  });

  it('where private targets are allowed, take loopback and private addresses, never the platform endpoints', () => {
    expect(checkTargetAddresses(named, ['127.0.0.1', '10.0.0.5', 'fe80::1'], relaxed)).toEqual({ ok: true });
    for (const address of ['169.254.169.254', '168.63.129.16', '::ffff:169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255']) {
      expect(checkTargetAddresses(named, [address], relaxed), address).toMatchObject({ ok: false, reason: 'NOT_PUBLIC' });
    }
  });

  it('take plain http only to non-public addresses, so signed events never cross the internet unencrypted', () => {
    const plain = target('http://receiver.local:8080/hooks', relaxed);
    expect(checkTargetAddresses(plain, ['127.0.0.1'], relaxed)).toEqual({ ok: true });
    expect(checkTargetAddresses(plain, ['127.0.0.1', '93.184.216.34'], relaxed)).toMatchObject({ ok: false, reason: 'NOT_HTTPS' });
  });
});

import { isIPv4, isIPv6 } from 'node:net';

/**
 * What kind of address an IP is, for deciding whether the service may send a webhook to it.
 * Only `public` is a place on the internet; every other class is some network's inside, a
 * reserved block, or the cloud platform's own endpoints.
 */
export type AddressClass =
  | 'public'
  | 'private'
  | 'shared'
  | 'loopback'
  | 'link-local'
  | 'cloud-metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'unique-local'
  | 'reserved'
  | 'invalid';

interface Block {
  readonly bytes: readonly number[];
  readonly bits: number;
  readonly class: AddressClass;
}

const v4 = (text: string, bits: number, kind: AddressClass): Block => ({ bytes: text.split('.').map(Number), bits, class: kind });

/**
 * IPv4 blocks that are not the public internet (IANA special-purpose registry, RFC 6890 and
 * successors), plus the two addresses through which a cloud host reaches its platform: the
 * instance metadata service and Azure's host endpoint (wire server, platform DNS), which looks
 * public but is not a partner's.
 */
const ipv4Blocks: readonly Block[] = [
  v4('169.254.169.254', 32, 'cloud-metadata'),
  v4('168.63.129.16', 32, 'cloud-metadata'),
  v4('255.255.255.255', 32, 'broadcast'),
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'benchmarking'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
].sort((a, b) => b.bits - a.bits);

const v6 = (groups: readonly number[], bits: number, kind: AddressClass): Block => ({
  bytes: groups.flatMap((g) => [g >> 8, g & 0xff]),
  bits,
  class: kind,
});

/** IPv6 blocks that are not the public internet, beyond "outside 2000::/3" (checked separately). */
const ipv6Blocks: readonly Block[] = [
  v6([0x0064, 0xff9b, 0x0001], 48, 'reserved'), // local-use NAT64 (RFC 8215)
  v6([0x0100], 64, 'reserved'), // discard-only
  v6([0x2001, 0x0db8], 32, 'documentation'),
  v6([0x2001], 23, 'reserved'), // IETF protocol assignments, Teredo included
  v6([0x3fff], 20, 'documentation'), // RFC 9637
  v6([0xfc00], 7, 'unique-local'),
  v6([0xfe80], 10, 'link-local'),
  v6([0xfec0], 10, 'reserved'), // former site-local
  v6([0xff00], 8, 'multicast'),
].sort((a, b) => b.bits - a.bits);

function inBlock(bytes: readonly number[], block: Block): boolean {
  for (let bit = 0; bit < block.bits; bit += 8) {
    const take = Math.min(8, block.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((block.bytes[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyIpv4(bytes: readonly number[]): AddressClass {
  return ipv4Blocks.find((block) => inBlock(bytes, block))?.class ?? 'public';
}

const startsWith = (bytes: readonly number[], prefix: readonly number[]): boolean => prefix.every((b, i) => bytes[i] === b);

function classifyIpv6(bytes: readonly number[]): AddressClass {
  const zeros10 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  // Forms that carry an IPv4 address are judged by that address: ::ffff:a.b.c.d (mapped),
  // ::a.b.c.d (compatible, after :: and ::1), 64:ff9b::a.b.c.d (NAT64) and 2002:AABB:CCDD:: (6to4).
  if (startsWith(bytes, [...zeros10, 0xff, 0xff])) return classifyIpv4(bytes.slice(12));
  if (startsWith(bytes, [...zeros10, 0, 0])) {
    if (bytes.slice(12).every((b, i) => b === (i === 3 ? bytes[15] : 0))) {
      if (bytes[15] === 0) return 'unspecified';
      if (bytes[15] === 1) return 'loopback';
    }
    // The compatible form is deprecated and not routed: refused even around a public address.
    const embedded = classifyIpv4(bytes.slice(12));
    return embedded === 'public' ? 'reserved' : embedded;
  }
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return classifyIpv4(bytes.slice(12));
  if (startsWith(bytes, [0x20, 0x02])) {
    const embedded = classifyIpv4(bytes.slice(2, 6));
    if (embedded !== 'public') return embedded;
  }
  const block = ipv6Blocks.find((b) => inBlock(bytes, b));
  if (block) return block.class;
  // Only 2000::/3 is allocated as global unicast; the rest is reserved.
  return ((bytes[0] ?? 0) & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/** The 16 bytes of an IPv6 address in text form (with `::` and a trailing dotted IPv4 allowed). */
function ipv6Bytes(text: string): number[] | undefined {
  let head = text;
  let tailV4: number[] = [];
  const lastColon = head.lastIndexOf(':');
  if (head.slice(lastColon + 1).includes('.')) {
    const dotted = head.slice(lastColon + 1);
    if (!isIPv4(dotted)) return undefined;
    tailV4 = dotted.split('.').map(Number);
    head = `${head.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(halves[0] ?? '');
  const right = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...right];
  if (groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return undefined;
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tailV4.length === 4) bytes.splice(12, 4, ...tailV4);
  return bytes;
}

/**
 * Classifies one IP address (IPv4 dotted quad, or IPv6 with or without brackets). A zone index
 * (`fe80::1%eth0`) or anything that is not an address is `invalid`, which is never sent to.
 */
export function classifyAddress(address: string): AddressClass {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(text)) return classifyIpv4(text.split('.').map(Number));
  if (!isIPv6(text) || text.includes('%')) return 'invalid';
  const bytes = ipv6Bytes(text.toLowerCase());
  return bytes ? classifyIpv6(bytes) : 'invalid';
}

import { describe, expect, it } from 'vitest';
import { BoundedLookups } from '../../src/outbound/BoundedLookups.js';
import { LookupsBusyError } from '../../src/outbound/LookupsBusyError.js';

/** A resolver whose answers the test gives by hand, and which counts the lookups running. */
function handResolver() {
  const pending = new Map<string, (addresses: readonly string[]) => void>();
  let running = 0;
  let most = 0;
  const resolve = (hostname: string): Promise<readonly string[]> =>
    new Promise((answer) => {
      running += 1;
      most = Math.max(most, running);
      pending.set(hostname, (addresses) => {
        running -= 1;
        answer(addresses);
      });
    });
  return { resolve, answer: (hostname: string) => pending.get(hostname)?.(['93.184.216.34']), most: () => most, running: () => running };
}

/** A turn of the event loop: what the lookups start without an answer from the resolver has run by then. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedLookups', () => {
  it('runs two lookups at once; the next starts when one ends', async () => {
    const resolver = handResolver();
    const lookups = new BoundedLookups(resolver.resolve, 2, 5_000);
    const answers = ['a.example', 'b.example', 'c.example'].map((name) => lookups.lookup(name));
    await tick();
    expect(resolver.running()).toBe(2);
    resolver.answer('a.example');
    await tick();
    expect(resolver.running()).toBe(2);
    resolver.answer('b.example');
    resolver.answer('c.example');
    expect(await Promise.all(answers)).toEqual([['93.184.216.34'], ['93.184.216.34'], ['93.184.216.34']]);
    expect(resolver.most()).toBe(2);
  });

  it('answers undefined when no answer comes in time, keeps the turn until the resolver lets go, and tells a caller no turn came', async () => {
    const resolver = handResolver();
    const lookups = new BoundedLookups(resolver.resolve, 1, 50);
    // A name server that does not answer: the caller is told after the timeout.
    expect(await lookups.lookup('blackhole.example')).toBeUndefined();
    // Its thread is still taken: the next lookup waits its turn and gets none in time, which says
    // nothing about its name.
    await expect(lookups.lookup('next.example')).rejects.toBeInstanceOf(LookupsBusyError);
    expect(resolver.most()).toBe(1);
    // Once the first lookup lets go, lookups run again.
    resolver.answer('blackhole.example');
    const later = lookups.lookup('later.example');
    await tick();
    resolver.answer('later.example');
    expect(await later).toEqual(['93.184.216.34']);
  });

  it('lets lookups of a name being looked up share that lookup, without a turn of their own', async () => {
    const resolver = handResolver();
    const lookups = new BoundedLookups(resolver.resolve, 2, 5_000);
    const same = [lookups.lookup('slow.example'), lookups.lookup('slow.example'), lookups.lookup('slow.example')];
    const other = lookups.lookup('other.example');
    await tick();
    expect(resolver.running()).toBe(2);
    resolver.answer('other.example');
    expect(await other).toEqual(['93.184.216.34']);
    resolver.answer('slow.example');
    expect(await Promise.all(same)).toEqual([['93.184.216.34'], ['93.184.216.34'], ['93.184.216.34']]);
    // Once answered, the name is looked up afresh.
    const again = lookups.lookup('slow.example');
    await tick();
    expect(resolver.running()).toBe(1);
    resolver.answer('slow.example');
    expect(await again).toEqual(['93.184.216.34']);
  });

  it('passes the resolver refusal on', async () => {
    const lookups = new BoundedLookups(() => Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })), 2, 1_000);
    await expect(lookups.lookup('nowhere.example')).rejects.toThrow('not found');
  });
});

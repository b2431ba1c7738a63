import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapFlagsFor, instanceMemoryMb } from '../../bench/instanceHeap.js';

const heapLimitMbWith = (flags: readonly string[]): number =>
  Number(
    execFileSync(process.execPath, [...flags, '-p', "require('node:v8').getHeapStatistics().heap_size_limit / 1048576"], {
      encoding: 'utf8',
    }),
  );

describe('heapFlagsFor', () => {
  it('is the instance memory the infrastructure deploys', () => {
    const bicep = readFileSync(join(__dirname, '..', '..', 'infra', 'main.bicep'), 'utf8');
    expect(bicep).toMatch(new RegExp(`instanceMemoryMB: ${instanceMemoryMb}\\b`));
  });

  it('sizes the heap of a 2,048 MB machine: 1,024 MB old generation and three 8 MB semi-spaces', () => {
    expect(heapFlagsFor(2048)).toEqual(['--max-old-space-size=1024', '--max-semi-space-size=8']);
    // What a Node process under those flags reports: the old generation and the young one (a
    // semi-space to allocate in, one to copy to, one for new large objects).
    expect(heapLimitMbWith(heapFlagsFor(2048))).toBe(1024 + 3 * 8);
  });

  it('keeps the old generation and the semi-space within V8’s bounds for small and large instances', () => {
    expect(heapFlagsFor(512)).toEqual(['--max-old-space-size=256', '--max-semi-space-size=2']);
    expect(heapFlagsFor(4096)).toEqual(['--max-old-space-size=2048', '--max-semi-space-size=16']);
    expect(heapFlagsFor(16384)).toEqual(['--max-old-space-size=4096', '--max-semi-space-size=16']);
    expect(heapFlagsFor(128)).toEqual(['--max-old-space-size=64', '--max-semi-space-size=1']);
  });
});

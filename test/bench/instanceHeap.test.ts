import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { instanceHeapFlags, instanceMemoryMb } from '../../bench/instanceHeap.js';

const heapLimitMbWith = (flags: readonly string[]): number =>
  Number(
    execFileSync(process.execPath, [...flags, '-p', "require('node:v8').getHeapStatistics().heap_size_limit / 1048576"], {
      encoding: 'utf8',
    }),
  );

describe('instanceHeapFlags', () => {
  it('is for the instance memory the infrastructure deploys', () => {
    const bicep = readFileSync(join(__dirname, '..', '..', 'infra', 'main.bicep'), 'utf8');
    expect(bicep).toMatch(new RegExp(`instanceMemoryMB: ${instanceMemoryMb}\\b`));
  });

  it('sizes the heap as V8 does for that memory: half of it as old generation, 1/128 of that as semi-space', () => {
    const oldSpaceMb = instanceMemoryMb / 2;
    const semiSpaceMb = oldSpaceMb / 128;
    expect(instanceHeapFlags).toEqual([`--max-old-space-size=${oldSpaceMb}`, `--max-semi-space-size=${semiSpaceMb}`]);
    // What a Node process under those flags reports: the old generation and the young one (a
    // semi-space to allocate in, one to copy to, and as much again for new large objects).
    expect(heapLimitMbWith(instanceHeapFlags)).toBe(oldSpaceMb + 3 * semiSpaceMb);
  });
});

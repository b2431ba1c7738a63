import { readFileSync } from 'node:fs';

/** Resident memory of this process from now on: its figure at the start and, when stopped, its peak. */
export interface RssSampler {
  readonly startBytes: number;
  /** Stops sampling; the highest figure seen, or the kernel's own high-water mark when that is higher. */
  stop(): number;
}

/**
 * Samples this process's resident memory every 100 ms. The kernel's high-water mark is read as
 * well at the end, since a short peak between two samples would otherwise go unseen.
 */
export function sampleRss(): RssSampler {
  const startBytes = process.memoryUsage.rss();
  let peak = startBytes;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  return {
    startBytes,
    stop: () => {
      clearInterval(sampler);
      return Math.max(peak, peakRssOfThisProcess() ?? 0);
    },
  };
}

/**
 * The kernel's high-water mark of this process's resident memory (VmHWM), Linux only. Not
 * `resourceUsage().maxRSS`: a forked child starts with its parent's figure there.
 */
function peakRssOfThisProcess(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

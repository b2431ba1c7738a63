/** A small seeded generator (mulberry32) so every reliability run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function shuffled<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A UUID-shaped id derived from the seed and a counter (version 4 layout). */
export function seededUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Run count and seed of a scenario: small in `npm test`, large in `npm run chaos`. */
export function chaosSettings(defaultRuns: number): { runs: number; seed: number } {
  const runs = Number(process.env.CHAOS_RUNS ?? defaultRuns);
  const seed = Number(process.env.CHAOS_SEED ?? 42);
  return { runs: Number.isFinite(runs) && runs > 0 ? Math.floor(runs) : defaultRuns, seed: Number.isFinite(seed) ? seed : 42 };
}

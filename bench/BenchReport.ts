import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';

export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** Human label for the table. */
  readonly label: string;
  /** Target as text (e.g. "≤ 1.25") and whether it was met; absent when the figure has none. */
  readonly target?: { readonly text: string; readonly met: boolean } | undefined;
}

export interface MachineInfo {
  readonly date: string;
  readonly cores: number;
  readonly node: string;
  readonly cpu: string;
  /** Load of the machine from other work, which the figures share the cores with. */
  readonly loadAverage?: string;
}

export function machineInfo(): MachineInfo {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) cpu = line.split(':')[1]?.trim() ?? cpu;
  } catch {
    // Not Linux: the model from os.cpus() stands.
  }
  return { date: new Date().toISOString(), cores: cpus().length, node: process.version, cpu };
}

/** `value` compared with an upper (`max`) or lower (`min`) bound; smoke runs carry no targets. */
export function target(value: number, bound: { max?: number; min?: number }, unit: string, enabled: boolean): Figure['target'] {
  if (!enabled) return undefined;
  if (bound.max !== undefined) return { text: `≤ ${bound.max} ${unit}`, met: value <= bound.max };
  if (bound.min !== undefined) return { text: `≥ ${bound.min} ${unit}`, met: value >= bound.min };
  return undefined;
}

/** The human-readable table, then one `BENCH <name> <value> <unit>` line per figure, last. */
export function formatReport(figures: readonly Figure[], machine: MachineInfo, scale: string, breakdown: readonly string[]): string[] {
  const lines: string[] = [];
  lines.push(
    `POS ingestion benchmark (${scale}) — ${machine.date}, ${machine.cores} cores, ${machine.cpu}, node ${machine.node}${machine.loadAverage ? `, load average ${machine.loadAverage}` : ''}`,
  );
  lines.push('');
  const rows = figures.map((f) => [f.label, `${f.value} ${f.unit}`, f.target ? `${f.target.text} ${f.target.met ? 'met' : 'MISSED'}` : '']);
  const header = ['figure', 'value', 'target'];
  const widths = header.map((title, c) => Math.max(title.length, ...rows.map((r) => r[c]?.length ?? 0)));
  const pad = (r: readonly string[]) =>
    r
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join('  ')
      .trimEnd();
  lines.push(pad(header));
  lines.push(pad(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) lines.push(pad(row));
  if (breakdown.length > 0) {
    lines.push('');
    lines.push('Storage requests of one push (method and resource):');
    for (const line of breakdown) lines.push(`  ${line}`);
  }
  lines.push('');
  for (const f of figures) lines.push(`BENCH ${f.name} ${f.value} ${f.unit}`);
  return lines;
}

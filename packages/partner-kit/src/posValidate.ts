/**
 * `pos-validate <endpoint> <file.json> [--store-currency CODE] [--json]`: checks a push body
 * offline and prints what the service would answer: the error code with every JSON Pointer path
 * and message, or the warnings. Exit code 0 when the service would accept the body, 1 when it
 * would refuse it, 2 on wrong usage.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { minorUnitDigits } from '../../../src/domain/currency/minorUnitDigits.js';
import { isPushEndpoint, pushEndpoints, validatePayload, type ValidationOutcome } from './validatePayload.js';

const usage = `Usage: pos-validate <endpoint> <file.json> [--store-currency CODE] [--json]
  endpoint: ${Object.keys(pushEndpoints).join(', ')}
  --store-currency  the store's currency, to check the body's currency and decimal places against it
  --json            print the body the service would answer (its error, or record_count and warnings)
Exit code: 0 the service would accept the body, 1 it would refuse it, 2 wrong usage.`;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Runs the command; returns its exit code.
 * @internal exported for its own test, which gives it the output; `main` runs it on the process.
 */
export function runPosValidate(argv: readonly string[], io: CliOutput): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { 'store-currency': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    io.err(usage);
    return 2;
  }
  const [endpoint, file, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    io.out(usage);
    return 0;
  }
  if (endpoint !== undefined && !isPushEndpoint(endpoint)) {
    io.err(`Unknown endpoint "${endpoint}": expected one of ${Object.keys(pushEndpoints).join(', ')}.`);
    io.err(usage);
    return 2;
  }
  if (endpoint === undefined || file === undefined || rest.length > 0) {
    io.err(usage);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch {
    io.err(`Cannot read ${file}.`);
    return 2;
  }
  const storeCurrency = parsed.values['store-currency'];
  // A mistyped code would otherwise blame every currency in the file.
  if (storeCurrency !== undefined && minorUnitDigits(storeCurrency) === undefined) {
    io.err(`--store-currency "${storeCurrency}" is not an active ISO 4217 currency code (three capital letters, e.g. USD).`);
    io.err(usage);
    return 2;
  }
  const outcome = validatePayload(endpoint, bytes, storeCurrency === undefined ? {} : { storeCurrency });
  if (parsed.values.json)
    io.out(JSON.stringify(outcome.ok ? { record_count: outcome.recordCount, warnings: outcome.warnings } : outcome.body, null, 2));
  else for (const line of describe(outcome)) io.out(line);
  return outcome.ok ? 0 : 1;
}

function describe(outcome: ValidationOutcome): string[] {
  if (outcome.ok) {
    const lines = [`OK: the service would accept this body (record_count ${outcome.recordCount}, ${outcome.warnings.length} warning(s)).`];
    for (const warning of outcome.warnings) lines.push(`warning ${warning.code} ${warning.path}: ${warning.message}`);
    return lines;
  }
  const { code, message, details = [] } = outcome.body.error;
  return [
    `${outcome.status} ${code}: ${message}`,
    ...details.map((detail) => `  ${detail.path === '' ? '(body)' : detail.path}: ${detail.message}`),
  ];
}

/** The command line program (bin/pos-validate.mjs). */
export function main(): void {
  process.exitCode = runPosValidate(process.argv.slice(2), {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
  });
}

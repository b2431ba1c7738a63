import { performance } from 'node:perf_hooks';
import type { TradeRecordBatch } from '../src/domain/model/payloads.js';
import { checkTradeRecordBatch } from '../src/domain/validation/checkTradeRecordBatch.js';
import { createBodyValidator } from '../src/bodyParsing/createBodyValidator.js';
import { readSchemaFolder } from '../src/bodyParsing/readSchemaFolder.js';
import { parseJsonBody } from '../src/bodyParsing/parseJsonBody.js';
import { BatchTemplate } from './BatchTemplate.js';
import { benchBusinessDate } from './benchBusinessDate.js';
import type { BenchScale } from './benchScale.js';
import { round } from './stats.js';

export interface ValidationResult {
  readonly records: number;
  readonly seconds: number;
  readonly recordsPerSecond: number;
  readonly msPerBatch: number;
}

/**
 * What a push spends before any storage request, on one core: parse the bytes, validate against
 * the JSON Schema, run the semantic checks (including the card-number and personal-data scan).
 */
export function measureValidation(scale: BenchScale): ValidationResult {
  const validator = createBodyValidator(readSchemaFolder());
  const template = new BatchTemplate({ storeId: 'VAL-0001', businessDate: benchBusinessDate, recordCount: scale.recordsPerBatch, seed: 5 });
  const bodies = Array.from({ length: 4 }, (_, i) => template.render(0x30000 + i));
  const once = (bytes: Buffer): void => {
    const parsed = parseJsonBody(bytes);
    if (!parsed.ok) throw new Error('generated body did not parse');
    const problems = validator.validate('tradeRecords', parsed.value);
    if (problems.length > 0) throw new Error(`generated body failed the schema: ${JSON.stringify(problems[0])}`);
    const checkProblems = checkTradeRecordBatch(parsed.value as TradeRecordBatch, 'USD');
    if (checkProblems.length > 0) throw new Error(`generated body failed the checks: ${JSON.stringify(checkProblems[0])}`);
  };
  for (const body of bodies) once(body);

  let batches = 0;
  const started = performance.now();
  const until = started + scale.validationSeconds * 1000;
  while (performance.now() < until || batches === 0) {
    for (const body of bodies) once(body);
    batches += bodies.length;
  }
  const seconds = (performance.now() - started) / 1000;
  const records = batches * template.recordCount;
  return {
    records,
    seconds: round(seconds, 2),
    recordsPerSecond: round(records / seconds, 0),
    msPerBatch: round((seconds * 1000) / batches, 1),
  };
}

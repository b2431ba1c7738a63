import { InvocationContext } from '@azure/functions';
import { expect } from 'vitest';
import { functionTable } from '../../src/functions/functionTable.js';
import { registerFunctions } from '../../src/functions/registerFunctions.js';
import { captureRegistrations, type CapturedTimerFunction } from '../../src/localhost/functionsCoreStandIn.js';
import type { TestService } from './startTestService.js';

/**
 * Runs the timer function `name` of the service's function table the way the timer trigger runs
 * it (as the host registers it, with its schedule checked), at once; resolves with its log lines.
 */
export async function runTimerFunction(service: TestService, name: string, schedule: string): Promise<string[]> {
  const captured = captureRegistrations(() => {
    registerFunctions(functionTable, service.services);
  }).find((fn): fn is CapturedTimerFunction => fn.kind === 'timer' && fn.name === name);
  expect(captured?.schedule).toBe(schedule);
  const lines: string[] = [];
  const context = new InvocationContext({ functionName: name, logHandler: (_level, ...args) => lines.push(args.join(' ')) });
  await captured!.handler(
    { isPastDue: false, schedule: { adjustForDST: true }, scheduleStatus: { last: '', next: '', lastUpdated: '' } },
    context,
  );
  return lines;
}

import { format } from 'node:util';
import type { LogHandler } from '@azure/functions';

/** Where the local host writes its own lines and the lines handlers log through their context. */
export interface LocalHostLogger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** Writes to the console with a timestamp. */
export const consoleLogger: LocalHostLogger = {
  info: (line) => {
    console.log(`${new Date().toISOString()} ${line}`);
  },
  warn: (line) => {
    console.warn(`${new Date().toISOString()} WARN ${line}`);
  },
  error: (line) => {
    console.error(`${new Date().toISOString()} ERROR ${line}`);
  },
};

/** Routes an InvocationContext's log calls to the logger, by level, tagged with the function name. */
export function invocationLogHandler(logger: LocalHostLogger, functionName: string): LogHandler {
  return (level, ...args) => {
    const line = `[${functionName}] ${format(...args)}`;
    switch (level) {
      case 'none':
        return;
      case 'warning':
        logger.warn(line);
        return;
      case 'error':
      case 'critical':
        logger.error(line);
        return;
      default:
        logger.info(line);
    }
  };
}

/**
 * Describes a thrown value for a log line without its message, which may quote request or message
 * content (JSON.parse errors do): the error's class name and the code locations from its stack.
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return `non-Error value of type ${typeof error}`;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 5)
    .map((line) => line.trim());
  return [error.name, ...frames].join(' | ');
}

import type { Warning } from '../../domain/model/Warning.js';

/** Response body of every push (contract §2.2): 202 ACCEPTED first, 200 ALREADY_RECEIVED after. */
export interface BatchAcknowledgement {
  readonly batch_id: string;
  readonly status: 'ACCEPTED' | 'ALREADY_RECEIVED';
  readonly record_count: number;
  readonly warnings: readonly Warning[];
}

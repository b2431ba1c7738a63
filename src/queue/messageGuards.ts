import type { ReconcileMessage } from '../services/ReconcileMessage.js';
import type { ClosedDayRerunMessage } from '../services/reruns/ClosedDayRerunMessage.js';
import { notesPerRerunMessage } from '../services/reruns/ClosedDayReruns.js';
import type { RerunNote } from '../services/reruns/RerunNote.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const strings = (value: Record<string, unknown>, keys: readonly string[]) => keys.every((k) => typeof value[k] === 'string');

export function isReconcileMessage(value: unknown): value is ReconcileMessage {
  return (
    isRecord(value) &&
    strings(value, ['partnerId', 'storeId', 'businessDate', 'closeBatchId']) &&
    (value.runId === undefined || (typeof value.runId === 'string' && value.runId !== '')) &&
    (value.dueAt === undefined || (typeof value.dueAt === 'string' && !Number.isNaN(Date.parse(value.dueAt)))) &&
    (value.rerunNotes === undefined ||
      (Array.isArray(value.rerunNotes) && value.rerunNotes.length <= notesPerRerunMessage && value.rerunNotes.every(isRerunNote)))
  );
}

function isRerunNote(value: unknown): value is RerunNote {
  if (!isRecord(value) || typeof value.etag !== 'string') return false;
  return value.kind === 'unmapped'
    ? typeof value.sourceCode === 'string'
    : value.kind === 'paymentType' && typeof value.paymentType === 'string';
}

export function isClosedDayRerunMessage(value: unknown): value is ClosedDayRerunMessage {
  if (!isRecord(value) || typeof value.partnerId !== 'string' || (value.after !== undefined && typeof value.after !== 'string'))
    return false;
  if (value.kind === 'remap') return value.mappingBatchId === undefined || typeof value.mappingBatchId === 'string';
  return value.kind === 'direction' && typeof value.paymentType === 'string';
}

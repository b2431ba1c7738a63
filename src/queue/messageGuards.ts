import type { ReconcileMessage } from '../services/ReconcileMessage.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const strings = (value: Record<string, unknown>, keys: readonly string[]) => keys.every((k) => typeof value[k] === 'string');

export function isReconcileMessage(value: unknown): value is ReconcileMessage {
  return isRecord(value) && strings(value, ['partnerId', 'storeId', 'businessDate', 'closeBatchId']);
}

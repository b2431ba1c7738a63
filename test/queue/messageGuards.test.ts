import { describe, expect, it } from 'vitest';
import { isClosedDayRerunMessage, isReconcileMessage } from '../../src/queue/messageGuards.js';
import { notesPerRerunMessage } from '../../src/services/reruns/ClosedDayReruns.js';

const reconcile = { partnerId: 'p-1', storeId: 'S-1', businessDate: '2026-03-01', closeBatchId: 'c-1' };
const unmappedNote = { kind: 'unmapped', sourceCode: 'X99', etag: 'W/"1"' };
const paymentTypeNote = { kind: 'paymentType', paymentType: 'HOUSE', etag: 'W/"2"' };

describe('isReconcileMessage', () => {
  it('takes a message with or without a run id, due time and rerun notes', () => {
    expect(isReconcileMessage(reconcile)).toBe(true);
    expect(
      isReconcileMessage({ ...reconcile, runId: 'remap-1', dueAt: '2026-03-02T10:00:00Z', rerunNotes: [unmappedNote, paymentTypeNote] }),
    ).toBe(true);
  });

  it.each([
    ['a missing close', { ...reconcile, closeBatchId: undefined }],
    ['an empty run id', { ...reconcile, runId: '' }],
    ['a due time that is not a time', { ...reconcile, dueAt: 'soon' }],
    ['rerun notes that are not a list', { ...reconcile, rerunNotes: unmappedNote }],
    ['a note of an unknown kind', { ...reconcile, rerunNotes: [{ ...unmappedNote, kind: 'store' }] }],
    ['an unmapped note without its code', { ...reconcile, rerunNotes: [{ kind: 'unmapped', etag: 'W/"1"' }] }],
    ['a payment type note without its type', { ...reconcile, rerunNotes: [{ kind: 'paymentType', sourceCode: 'X', etag: 'W/"1"' }] }],
    ['a note without its etag', { ...reconcile, rerunNotes: [{ kind: 'unmapped', sourceCode: 'X99' }] }],
    [
      'more notes than a rerun page holds',
      { ...reconcile, rerunNotes: Array.from({ length: notesPerRerunMessage + 1 }, () => unmappedNote) },
    ],
  ])('refuses %s', (_, message) => {
    expect(isReconcileMessage(message)).toBe(false);
  });
});

describe('isClosedDayRerunMessage', () => {
  it('takes a remap and a direction message, with or without where the page starts', () => {
    expect(isClosedDayRerunMessage({ kind: 'remap', partnerId: 'p-1' })).toBe(true);
    expect(isClosedDayRerunMessage({ kind: 'remap', partnerId: 'p-1', mappingBatchId: 'map-1', after: 'k' })).toBe(true);
    expect(isClosedDayRerunMessage({ kind: 'direction', partnerId: 'p-1', paymentType: 'HOUSE', after: 'k' })).toBe(true);
  });

  it.each([
    ['an unknown kind', { kind: 'rebuild', partnerId: 'p-1' }],
    ['a direction without its type', { kind: 'direction', partnerId: 'p-1' }],
    ['a start that is not a key', { kind: 'remap', partnerId: 'p-1', after: 3 }],
    ['an upload that is not named by its batch id', { kind: 'remap', partnerId: 'p-1', mappingBatchId: 7 }],
    ['no partner', { kind: 'remap' }],
  ])('refuses %s', (_, message) => {
    expect(isClosedDayRerunMessage(message)).toBe(false);
  });
});

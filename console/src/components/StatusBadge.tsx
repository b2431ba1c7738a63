import type { DayStatus } from '../api/hqTypes.js';

export const statusLabels: Readonly<Record<DayStatus, string>> = {
  NOT_RECEIVED: 'Not received',
  RECEIVED: 'Received',
  MATCHED: 'Matched',
  MISMATCHED: 'Mismatched',
};

/** A short mark besides the colour, so the status reads without colour too. */
export const statusMarks: Readonly<Record<DayStatus, string>> = {
  NOT_RECEIVED: '–',
  RECEIVED: '…',
  MATCHED: '✓',
  MISMATCHED: '✗',
};

export function StatusBadge({ status, overdue }: { readonly status: DayStatus; readonly overdue?: boolean }) {
  return (
    <span class={`badge status-${status}${overdue ? ' overdue' : ''}`}>
      {statusMarks[status]} {statusLabels[status]}
      {overdue ? ' · overdue' : ''}
    </span>
  );
}

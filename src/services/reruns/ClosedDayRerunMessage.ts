/**
 * Message of the closed-day rerun queue: reconcile again the noted closed days of one partner that a
 * change affects, one page of notes per message, each message sending the next. `after` is where
 * this message's page starts (absent on the first).
 */
export type ClosedDayRerunMessage =
  /**
   * After a mapping upload: days that counted a code the mapping in effect now maps as unmapped.
   * `mappingBatchId` names the upload; once another is in effect, the chain stops (absent in
   * messages sent before uploads were named: such a chain runs to its end).
   */
  | { readonly kind: 'remap'; readonly partnerId: string; readonly mappingBatchId?: string; readonly after?: string }
  /** After HQ set the direction of one of the partner's payment types: days that used the type. */
  | { readonly kind: 'direction'; readonly partnerId: string; readonly paymentType: string; readonly after?: string };

/**
 * A note that had a closed store-day reconciled again, as the rerun listed it: an unmapped source
 * code a mapping upload now maps, or a payment type HQ set a direction for. The run it schedules
 * forgets it once the day's result and files are written; if the run notes the day again (the day
 * still holds the code back, or still uses the type), the note's etag has changed and it stays.
 */
export type RerunNote =
  | { readonly kind: 'unmapped'; readonly sourceCode: string; readonly etag: string }
  | { readonly kind: 'paymentType'; readonly paymentType: string; readonly etag: string };

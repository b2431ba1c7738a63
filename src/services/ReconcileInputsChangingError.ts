/**
 * The partner's mapping or payment directions changed under every pass of one reconciliation.
 * Nothing was stored; the message fails, and the host runs it again.
 */
export class ReconcileInputsChangingError extends Error {
  override readonly name = 'ReconcileInputsChangingError';

  constructor(readonly passes: number) {
    super(`The mapping or payment directions changed during each of ${passes} passes of the reconciliation; the message is retried.`);
  }
}

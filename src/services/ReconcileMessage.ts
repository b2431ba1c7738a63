/** Message of the reconcile queue: reconcile this store-day against this close. */
export interface ReconcileMessage {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
  /** The close the message was sent for; a later close supersedes it and the message does nothing. */
  readonly closeBatchId: string;
}

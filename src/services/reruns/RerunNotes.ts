import { mapBounded } from '../mapBounded.js';
import type { UnmappedCodes } from '../ports/UnmappedCodes.js';
import type { UsedPaymentTypes } from '../ports/UsedPaymentTypes.js';
import type { RerunNote } from './RerunNote.js';

/** Storage calls in flight at once while forgetting one day's notes (at most a page of them). */
const forgetConcurrency = 8;

/** The two kinds of note a rerun is scheduled from, as one day's run forgets them. */
export class RerunNotes {
  constructor(
    private readonly unmappedCodes: Pick<UnmappedCodes, 'remove'>,
    private readonly paymentTypes: Pick<UsedPaymentTypes, 'remove'>,
  ) {}

  /** Forgets each note as it was listed; one noted again since keeps its newer version. */
  async forget(partnerId: string, storeId: string, businessDate: string, notes: readonly RerunNote[]): Promise<void> {
    await mapBounded(notes, forgetConcurrency, (note) =>
      note.kind === 'unmapped'
        ? this.unmappedCodes.remove(partnerId, { sourceCode: note.sourceCode, storeId, businessDate, etag: note.etag })
        : this.paymentTypes.remove(partnerId, { paymentType: note.paymentType, storeId, businessDate, etag: note.etag }),
    );
  }
}

import { randomUUID } from 'node:crypto';
import type { CurrentMapping } from '../catalog/MappingCatalog.js';
import { mapBounded } from '../mapBounded.js';
import type { DayCloses } from '../ports/DayCloses.js';
import type { MessageQueue } from '../ports/MessageQueue.js';
import type { UnmappedCodes } from '../ports/UnmappedCodes.js';
import type { UsedPaymentTypes } from '../ports/UsedPaymentTypes.js';
import type { ReconcileMessage } from '../ReconcileMessage.js';
import type { ClosedDayRerunMessage } from './ClosedDayRerunMessage.js';
import type { RerunNote } from './RerunNote.js';
import { RerunNotes } from './RerunNotes.js';

/** Notes one rerun message handles: its storage calls stay well inside one function run. */
export const notesPerRerunMessage = 100;

/** Storage calls a rerun message has in flight at once. */
const rerunConcurrency = 8;

/** A note that a closed store-day used something a later change (a mapping, a direction) affects. */
interface DayNote {
  readonly storeId: string;
  readonly businessDate: string;
}

export interface ClosedDayRerunsDeps {
  readonly unmappedCodes: UnmappedCodes;
  readonly paymentTypes: UsedPaymentTypes;
  /** The partner's mapping in effect: the upload's batch id and the source codes it maps. */
  readonly mappingInEffect: (partnerId: string) => Promise<Pick<CurrentMapping, 'batchId' | 'byCode'>>;
  readonly closes: DayCloses;
  readonly reconcileQueue: MessageQueue<ReconcileMessage>;
  readonly rerunQueue: MessageQueue<ClosedDayRerunMessage>;
  readonly clock: () => Date;
}

/**
 * Reconciles closed days again after a change that affects them: a mapping upload (contract §4.2:
 * transactions are "re-mapped automatically") or a payment direction HQ sets. The change only
 * queues a message; the days are found and scheduled in the background, a page of notes per
 * message, so that neither the partner's upload nor HQ's request waits on a partner's whole history,
 * and no run of a function grows with it.
 */
export class ClosedDayReruns {
  private readonly notes: RerunNotes;

  constructor(private readonly deps: ClosedDayRerunsDeps) {
    this.notes = new RerunNotes(deps.unmappedCodes, deps.paymentTypes);
  }

  /** Call after the mapping pointer switched to the upload `mappingBatchId`. */
  async afterMappingUpload(partnerId: string, mappingBatchId: string): Promise<void> {
    await this.deps.rerunQueue.send({ kind: 'remap', partnerId, mappingBatchId }, 0);
  }

  /** Call after the direction is stored: a day noted from then on is a run that already reads it. */
  async afterDirectionSet(partnerId: string, paymentType: string): Promise<void> {
    await this.deps.rerunQueue.send({ kind: 'direction', partnerId, paymentType }, 0);
  }

  /**
   * Handles one message: schedules the days of its page, each with the notes that named it, then
   * sends the message of the next page. The notes are left for the runs to forget once they have
   * written their results (see {@link RerunNote}). The pages move forward by key, so the chain ends
   * even while the runs it schedules note their days again. A message retried after a failure
   * schedules its page's days again, which only costs a run.
   */
  async runPage(message: ClosedDayRerunMessage): Promise<string> {
    const { partnerId } = message;
    if (message.kind === 'remap') {
      const [usages, mapping] = await Promise.all([
        this.deps.unmappedCodes.listPage(partnerId, message.after, notesPerRerunMessage),
        this.deps.mappingInEffect(partnerId),
      ]);
      // A later upload sent a chain of its own, which goes through every note with the mapping now
      // in effect: this one stops, so that uploads in quick succession do not multiply the work.
      if (message.mappingBatchId !== undefined && mapping.batchId !== message.mappingBatchId) {
        return `remap for partner ${partnerId}: a later mapping upload is in effect; its own reruns cover the rest`;
      }
      const remapped = usages.notes.filter((u) => mapping.byCode.has(u.sourceCode));
      return this.rerun(message, usages.next, remapped, (u) => ({ kind: 'unmapped', sourceCode: u.sourceCode, etag: u.etag }));
    }
    const usages = await this.deps.paymentTypes.listDaysPage(partnerId, message.paymentType, message.after, notesPerRerunMessage);
    return this.rerun(message, usages.next, usages.notes, (u) => ({ kind: 'paymentType', paymentType: u.paymentType, etag: u.etag }));
  }

  /**
   * Reconciles the given store-days again now, each against its close in effect: HQ's way to bring
   * days in line with a change that notes no day (a code already mapped given another standard code,
   * or left out of an upload). A day without a close is skipped. Returns how many were scheduled.
   */
  async rerunDays(partnerId: string, days: readonly DayNote[]): Promise<number> {
    const scheduled = await mapBounded(days, rerunConcurrency, (day) => this.schedule(partnerId, 'hq', day, []));
    return scheduled.filter(Boolean).length;
  }

  private async rerun<N extends DayNote>(
    message: ClosedDayRerunMessage,
    next: string | undefined,
    notes: readonly N[],
    toRerunNote: (note: N) => RerunNote,
  ): Promise<string> {
    const days = new Map<string, { day: DayNote; notes: RerunNote[] }>();
    for (const note of notes) {
      const key = `${note.storeId}\n${note.businessDate}`;
      const day = days.get(key) ?? { day: note, notes: [] };
      day.notes.push(toRerunNote(note));
      days.set(key, day);
    }
    const scheduled = await mapBounded([...days.values()], rerunConcurrency, (d) =>
      this.schedule(message.partnerId, message.kind, d.day, d.notes),
    );
    if (next !== undefined) await this.deps.rerunQueue.send({ ...message, after: next }, 0);
    const count = scheduled.filter(Boolean).length;
    // The partner is named so that a chain's progress, and where a poisoned page stopped it, can be followed.
    return `${message.kind} for partner ${message.partnerId}: ${count} closed day(s) scheduled, ${next === undefined ? 'last page' : 'next page sent'}`;
  }

  /** One message per closed day, against the close in effect, as a run of its own, due now. */
  private async schedule(partnerId: string, kind: string, day: DayNote, rerunNotes: readonly RerunNote[]): Promise<boolean> {
    const stored = await this.deps.closes.get(partnerId, day.storeId, day.businessDate);
    if (!stored) {
      // No close to reconcile against (the day's close is gone): nothing will ever run for these notes.
      await this.notes.forget(partnerId, day.storeId, day.businessDate, rerunNotes);
      return false;
    }
    await this.deps.reconcileQueue.send(
      {
        partnerId,
        storeId: day.storeId,
        businessDate: day.businessDate,
        closeBatchId: stored.close.batch_id,
        // Names the run, so the log and the results say what scheduled it; its events get ids of their own.
        runId: `${kind}-${randomUUID()}`,
        dueAt: this.deps.clock().toISOString(),
        ...(rerunNotes.length > 0 ? { rerunNotes } : {}),
      },
      0,
    );
    return true;
  }
}

import type { ReportFiles, StoreDayFiles } from '../../../src/services/ports/ReportFiles.js';
import { storeDayBlobName, storeDaysBlobName } from '../../../src/reports/reportBlobName.js';
import { storeDayDatasets } from '../../../src/reports/reportDatasets.js';
import type { StoreDayWrite } from '../../../src/storage/ReportStore.js';

/** Report files in a map under the names the reports container gives them, for unit tests of services. */
export class InMemoryReportFiles implements ReportFiles {
  private readonly files = new Map<string, Buffer>();
  /** The stamp of the last build written, per store-day. */
  private readonly stamps = new Map<string, string>();
  /** Writes of each store_days file, so that a build overtaken by another write is redone. */
  private readonly storeDaysWrites = new Map<string, number>();

  async writeStoreDay(
    partnerId: string,
    storeId: string,
    businessDate: string,
    building: StoreDayFiles | Promise<StoreDayFiles>,
    stamp: string,
    onWritten?: () => Promise<void>,
  ): Promise<StoreDayWrite> {
    const names = storeDayDatasets.map((dataset) => ({ dataset, name: storeDayBlobName(dataset, partnerId, businessDate, storeId) }));
    const day = JSON.stringify([partnerId, storeId, businessDate]);
    const written = this.stamps.get(day);
    if (written !== undefined && written > stamp) return 'superseded';
    const files = await building;
    for (const { dataset, name } of names) {
      const bytes = files[dataset];
      if (bytes) this.files.set(name, bytes instanceof Uint8Array ? Buffer.from(bytes) : Buffer.concat(bytes));
      else this.files.delete(name);
    }
    this.stamps.set(day, stamp);
    await onWritten?.();
    return 'written';
  }

  async writeStoreDays(partnerId: string, businessDate: string, build: () => Promise<Uint8Array | undefined>): Promise<void> {
    const name = storeDaysBlobName(partnerId, businessDate);
    for (;;) {
      const before = this.storeDaysWrites.get(name) ?? 0;
      const bytes = await build();
      if (!bytes) return;
      if ((this.storeDaysWrites.get(name) ?? 0) !== before) continue;
      this.files.set(name, Buffer.from(bytes));
      this.storeDaysWrites.set(name, before + 1);
      return;
    }
  }

  /** A file's bytes by its name in the reports container; undefined when there is none. */
  read(name: string): Promise<Buffer | undefined> {
    const bytes = this.files.get(name);
    return Promise.resolve(bytes ? Buffer.from(bytes) : undefined);
  }
}

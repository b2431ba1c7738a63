import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobGetPropertiesResponse, BlobLeaseClient, BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import type { ReportFileBytes, StoreDayFiles } from '../services/ports/ReportFiles.js';
import { storeDayBlobName, storeDayMarkerName, storeDaysBlobName } from '../reports/reportBlobName.js';
import { storeDayDatasets, type StoreDayDataset } from '../reports/reportDatasets.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';

export type StoreDayWrite = 'written' | 'superseded';

/** Another writer held the store-day for longer than a lease lasts: the write is retried later. */
class ReportBusyError extends Error {
  constructor() {
    super("Another writer kept the store-day's report files locked; the write is retried.");
    this.name = 'ReportBusyError';
  }
}

const parquetContentType = 'application/vnd.apache.parquet';
/** Blob metadata holding the instant the build that wrote a file started. */
const stampKey = 'generatedat';
/** Blob metadata holding the SHA-256 (base64) of a report file's content, set in the same upload. */
const hashKey = 'contentsha256';
/** Longest finite lease; renewed while the files are built, so a build of any length keeps it. */
const leaseSeconds = 60;
/** A held lease is renewed this often while the files are built, and before a write once this much of it has passed. */
const renewAfterMs = 20_000;
/** How long a writer waits for another's lease before giving up (a crashed writer's lease lapses after 60 s). */
const maxWaitMs = 75_000;
/** Rounds of the store_days read → write loop before giving up to a retry. */
const maxStoreDaysRounds = 20;

/**
 * The report files in the reports container.
 *
 * Every file replaces the blob whole with a single Put Blob. A file in several pieces (assembled
 * from fragments) is sent as one request body streamed from its pieces, never joined in memory.
 * Storage makes a Put Blob's content visible only once the whole body has arrived. A reader
 * therefore sees the old file or the new one, never a mix or a half-written file; a write cut off
 * part-way leaves the old file as it was, and its retry sends the whole file again. There is no
 * temporary name to clean up. (Report files are a few megabytes; one Put Blob takes up to 5,000 MiB.)
 *
 * A store-day file whose content is unchanged (its content hash, stored with it, equals the new
 * file's) is not uploaded again: only its stamp is updated, with the blob's ETag as condition, so
 * rewriting an unchanged day costs a few requests instead of megabytes.
 *
 * Writes of a store-day are ordered by their build's stamp (buildStamp: the run, then the instant
 * the build started; compared as strings): under a lease on the store-day's marker blob, a build
 * writes only if no build with a greater stamp has written already, so
 * two reconciliations of the same day racing each other leave the newer one's files, and a
 * dataset the newer build has no row for is removed rather than left stale.
 */
export class ReportStore {
  constructor(
    private readonly container: ContainerClient,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    private readonly leaseRenewalMs = renewAfterMs,
  ) {}

  /**
   * Writes a store-day's files (a dataset without a file has its old file removed). Returns
   * 'superseded' and writes nothing when a later build (a greater `stamp`) has written the store-day.
   *
   * `files` may still be being built: the store-day's lease is taken and its current files read
   * meanwhile. `onWritten` runs once the files are written, while the lease is let go (it must not
   * need the lease); the write fails if it does.
   */
  async writeStoreDay(
    partnerId: string,
    storeId: string,
    businessDate: string,
    files: StoreDayFiles | Promise<StoreDayFiles>,
    stamp: string,
    onWritten?: () => Promise<void>,
  ): Promise<StoreDayWrite> {
    // Awaited below once the lease is held; a build that fails before then is not an unhandled rejection.
    Promise.resolve(files).catch(() => undefined);
    const marker = this.container.getBlockBlobClient(storeDayMarkerName(partnerId, businessDate, storeId));
    const lease = await this.acquire(marker.getBlobLeaseClient(), async () => {
      try {
        await marker.uploadData(new Uint8Array(0), { conditions: { ifNoneMatch: '*' } });
      } catch (error) {
        // Created by another writer meanwhile, or leased by one: either way it exists now.
        if (!isConflict(error) && !isPreconditionFailed(error)) throw error;
      }
    });
    let status: StoreDayWrite;
    try {
      status = await this.writeLeased(marker, lease, storeDayBlobNames(partnerId, storeId, businessDate), files, stamp);
    } catch (error) {
      await lease.release();
      throw error;
    }
    if (status === 'superseded' || !onWritten) {
      await lease.release();
      return status;
    }
    const outcomes = await Promise.allSettled([lease.release(), onWritten()]);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return status;
  }

  /** The body of {@link writeStoreDay}, under the store-day's lease. */
  private async writeLeased(
    marker: BlockBlobClient,
    lease: HeldLease,
    names: readonly { readonly dataset: StoreDayDataset; readonly name: string }[],
    building: StoreDayFiles | Promise<StoreDayFiles>,
    stamp: string,
  ): Promise<StoreDayWrite> {
    // What the files hold now is read alongside the marker: only this lease's holder writes them.
    const [markerProperties, ...current] = await Promise.all([
      marker.getProperties({ conditions: { leaseId: lease.leaseId } }),
      ...names.map(({ name }) => propertiesIfExists(this.container.getBlockBlobClient(name))),
    ]);
    const written = markerProperties.metadata?.[stampKey];
    if (written !== undefined && written > stamp) return 'superseded';
    // The lease is taken before the files are built, so it is kept while they are.
    const files = await lease.keptWhile(building);
    await lease.renewIfDue();
    // The four files are independent blobs, each replaced whole: they are sent side by side, the
    // lease kept meanwhile, as uploads of large files can outlast it.
    const uploads = Promise.all(
      names.map(async ({ dataset, name }, i) => {
        const blob = this.container.getBlockBlobClient(name);
        const bytes = files[dataset];
        const existing = current[i];
        if (!bytes) {
          if (existing) await blob.deleteIfExists();
          return;
        }
        const metadata = { [stampKey]: stamp, [hashKey]: sha256(bytes) };
        if (existing?.metadata?.[hashKey] === metadata[hashKey] && existing.etag !== undefined) {
          try {
            await blob.setMetadata(metadata, { conditions: { ifMatch: existing.etag } });
            return;
          } catch (error) {
            // Changed since it was read (not by a writer of this service): replaced whole below.
            if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
          }
        }
        await this.upload(blob, bytes, metadata);
      }),
    );
    await lease.keptWhile(uploads);
    await lease.renewIfDue();
    await marker.setMetadata({ [stampKey]: stamp }, { conditions: { leaseId: lease.leaseId } });
    return 'written';
  }

  /**
   * Rewrites the store_days file of a partner's business date from `build`, which reads the rows
   * it holds. The stores of a day take turns (StoreDaysRewrites), but a turn can be taken over
   * from a writer that is slow rather than gone: the upload is conditional on the file being
   * unchanged since before `build` read its rows, and is redone otherwise, so the last file written
   * was built from rows read after every earlier write.
   */
  async writeStoreDays(partnerId: string, businessDate: string, build: () => Promise<Uint8Array | undefined>): Promise<void> {
    const blob = this.container.getBlockBlobClient(storeDaysBlobName(partnerId, businessDate));
    for (let round = 1; ; round += 1) {
      // Read before `build` lists the rows: a write after that changes it.
      const etag = await blob.getProperties().then(
        (properties) => properties.etag,
        (error: unknown) => {
          if (!isNotFound(error)) throw error;
          return undefined;
        },
      );
      const bytes = await build();
      if (!bytes) return;
      try {
        await blob.uploadData(bytes, {
          blobHTTPHeaders: { blobContentType: parquetContentType },
          conditions: etag === undefined ? { ifNoneMatch: '*' } : { ifMatch: etag },
        });
        return;
      } catch (error) {
        if (!(isConflict(error) || isPreconditionFailed(error)) || round >= maxStoreDaysRounds) throw error;
      }
    }
  }

  /** Replaces a blob whole with a file's bytes in one request (see the class comment). */
  private async upload(blob: BlockBlobClient, bytes: ReportFileBytes, metadata: Record<string, string>): Promise<void> {
    const options = { blobHTTPHeaders: { blobContentType: parquetContentType }, metadata };
    if (bytes instanceof Uint8Array) {
      await blob.uploadData(bytes, options);
      return;
    }
    const length = bytes.reduce((sum, piece) => sum + piece.length, 0);
    // A new stream for every try: the client's retry policy sends the body again from its start.
    await blob.upload(() => Readable.from(bytes, { objectMode: false }), length, options);
  }

  private async acquire(client: BlobLeaseClient, create: () => Promise<void>): Promise<HeldLease> {
    const started = Date.now();
    let delay = 50;
    for (;;) {
      try {
        await client.acquireLease(leaseSeconds);
        return new HeldLease(client, this.leaseRenewalMs);
      } catch (error) {
        if (isNotFound(error)) {
          await create();
          continue;
        }
        if (!isConflict(error)) throw error;
      }
      if (Date.now() - started > maxWaitMs) throw new ReportBusyError();
      await this.sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
  }
}

function storeDayBlobNames(partnerId: string, storeId: string, businessDate: string): { dataset: StoreDayDataset; name: string }[] {
  return storeDayDatasets.map((dataset) => ({ dataset, name: storeDayBlobName(dataset, partnerId, businessDate, storeId) }));
}

/** SHA-256 (base64) of a file's content, whole or in pieces. */
function sha256(bytes: ReportFileBytes): string {
  const hash = createHash('sha256');
  for (const piece of bytes instanceof Uint8Array ? [bytes] : bytes) hash.update(piece);
  return hash.digest('base64');
}

/** A blob's properties, or undefined when it does not exist. */
async function propertiesIfExists(blob: ReturnType<ContainerClient['getBlockBlobClient']>): Promise<BlobGetPropertiesResponse | undefined> {
  try {
    return await blob.getProperties();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

class HeldLease {
  private renewedAt = Date.now();

  constructor(
    private readonly client: BlobLeaseClient,
    private readonly renewAfterMs: number,
  ) {}

  get leaseId(): string {
    return this.client.leaseId;
  }

  async renewIfDue(): Promise<void> {
    if (Date.now() - this.renewedAt < this.renewAfterMs) return;
    await this.renew();
  }

  /**
   * Waits for `work`, renewing the lease every `renewAfterMs` meanwhile, so work longer than the
   * lease does not let it lapse to another writer. A renewal that failed fails the wait once the
   * work is done.
   */
  async keptWhile<T>(work: T | Promise<T>): Promise<T> {
    let renewing: Promise<void> = Promise.resolve();
    let failure: { readonly error: unknown } | undefined;
    const timer = setInterval(() => {
      renewing = renewing
        .then(() => this.renew())
        .catch((error: unknown) => {
          failure ??= { error };
        });
    }, this.renewAfterMs);
    let value: T;
    try {
      value = await work;
    } finally {
      clearInterval(timer);
    }
    await renewing;
    if (failure) throw failure.error;
    return value;
  }

  private async renew(): Promise<void> {
    await this.client.renewLease();
    this.renewedAt = Date.now();
  }

  async release(): Promise<void> {
    try {
      await this.client.releaseLease();
    } catch {
      // The lease lapses by itself within a minute; a failed release must not hide the write's outcome.
    }
  }
}

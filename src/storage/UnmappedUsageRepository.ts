import type { TableClient, TransactionAction } from '@azure/data-tables';
import type { NotePage } from '../services/ports/NotePage.js';
import { listNotePage } from './listNotePage.js';
import { isNotFound, isPreconditionFailed } from './storageErrors.js';
import { actionSize, transactionChunks } from './transactionChunks.js';
import { decodeKeyPart, encodeKeyPart, tableKey } from './tableKey.js';

/** A closed store-day that had transactions with a source code that was not mapped. */
export interface UnmappedUsage {
  readonly sourceCode: string;
  readonly storeId: string;
  readonly businessDate: string;
  /** The note's version: a removal takes it away only while no later run has noted the code again. */
  readonly etag: string;
}

interface UsageEntity {
  readonly sourceCode?: string;
  readonly storeId?: string;
  readonly businessDate?: string;
}

/**
 * Remembers which closed days used unmapped source codes, so that a mapping upload that maps
 * one of them can have those days reconciled again (contract §4.2: "re-mapped automatically").
 */
export class UnmappedUsageRepository {
  constructor(private readonly table: TableClient) {}

  async record(partnerId: string, storeId: string, businessDate: string, sourceCodes: Iterable<string>): Promise<void> {
    // The values are kept as properties too: a long code's part of the key is a digest.
    const actions = [...sourceCodes].map((code): TransactionAction => [
      'upsert',
      { partitionKey: encodeKeyPart(partnerId), rowKey: tableKey(code, storeId, businessDate), sourceCode: code, storeId, businessDate },
      'Replace',
    ]);
    for (const chunk of transactionChunks(actions, actionSize)) await this.table.submitTransaction(chunk);
  }

  async listPage(partnerId: string, after: string | undefined, max: number): Promise<NotePage<UnmappedUsage>> {
    return listNotePage<UsageEntity, UnmappedUsage>(
      this.table,
      encodeKeyPart(partnerId),
      after,
      max,
      ['sourceCode', 'storeId', 'businessDate'],
      (e) => {
        if (e.sourceCode !== undefined && e.storeId !== undefined && e.businessDate !== undefined) {
          return { sourceCode: e.sourceCode, storeId: e.storeId, businessDate: e.businessDate, etag: e.etag };
        }
        // Rows written before the values were kept as properties: their keys spell them out.
        const [code, storeId, businessDate] = (e.rowKey ?? '').split('|').map(decodeKeyPart);
        return { sourceCode: code ?? '', storeId: storeId ?? '', businessDate: businessDate ?? '', etag: e.etag };
      },
    );
  }

  async remove(partnerId: string, usage: UnmappedUsage): Promise<void> {
    try {
      await this.table.deleteEntity(encodeKeyPart(partnerId), tableKey(usage.sourceCode, usage.storeId, usage.businessDate), {
        etag: usage.etag,
      });
    } catch (error) {
      if (!isNotFound(error) && !isPreconditionFailed(error)) throw error;
    }
  }
}

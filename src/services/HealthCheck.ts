import type { TableClient } from '@azure/data-tables';
import { isNotFound } from '../storage/storageErrors.js';

/** Storage answers → healthy. One point read of a row that never exists. */
export class HealthCheck {
  constructor(private readonly probeTable: TableClient) {}

  async isHealthy(): Promise<boolean> {
    try {
      await this.probeTable.getEntity('health', 'probe', { abortSignal: AbortSignal.timeout(5000) });
      return true;
    } catch (error) {
      return isNotFound(error);
    }
  }
}

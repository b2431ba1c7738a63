import { TableClient } from '@azure/data-tables';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/localhost/startAzurite.js';
import { HealthCheck } from '../../src/services/HealthCheck.js';
import { developmentConnectionString } from '../../src/storage/developmentStorage.js';

describe('HealthCheck', () => {
  it('reports unhealthy when storage does not answer', async () => {
    const port = await freePort(); // nothing listens there
    const connection = developmentConnectionString({ blob: port, queue: port, table: port });
    const table = TableClient.fromConnectionString(connection, 'partners', {
      allowInsecureConnection: true,
      retryOptions: { maxRetries: 0 },
    });
    expect(await new HealthCheck(table).isHealthy()).toBe(false);
  });
});

import { ApiError } from '../../errors/ApiError.js';
import type { BatchKind } from '../../domain/model/BatchKind.js';
import type { AppServices, Partner } from '../../services/AppServices.js';
import type { Endpoint } from '../Endpoint.js';
import { readJsonBody } from '../readJsonBody.js';

/**
 * POST /trade-records, POST /daily-close, PUT /stores, PUT /products, PUT /mappings/transaction-types:
 * 202 with the acknowledgement on first receipt, 200 on a repeat (contract §2.2).
 * /trade-records calls count against the partner's rate limit, decided from the key alone before
 * a byte of the body is read: a limited partner costs neither the read nor the parse, and gets 429
 * whatever the size of its body.
 */
export function pushEndpoint(kind: BatchKind, options: { rateLimited: boolean }): Endpoint {
  return async ({ request, services, partner }) => {
    if (options.rateLimited) await admit(services, partner);
    const body = await readJsonBody(request, services.config.maxRequestBodyBytes, services.bodyBudget);
    try {
      const ack = await services.ingestion.push(partner.partnerId, services.processors[kind], body.bytes);
      return { status: ack.status === 'ACCEPTED' ? 202 : 200, body: ack, batchId: ack.batch_id };
    } finally {
      body.release();
    }
  };
}

async function admit(services: AppServices, partner: Partner): Promise<void> {
  const decision = await services.rateLimiter.take(partner.partnerId, services.rateLimitFor(partner), services.clock());
  if (!decision.allowed) throw new ApiError('RATE_LIMITED', undefined, [], decision.retryAfterSeconds);
}

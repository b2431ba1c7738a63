import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError } from '../../errors/ApiError.js';
import type { BatchKind } from '../../domain/model/BatchKind.js';
import type { AppServices, Partner } from '../../services/AppServices.js';
import type { Endpoint } from '../Endpoint.js';
import { readJsonBody } from '../readJsonBody.js';

/**
 * POST /trade-records, POST /daily-close, PUT /stores, PUT /products, PUT /mappings/transaction-types:
 * 202 with the acknowledgement on first receipt, 200 on a repeat (contract §2.2).
 * /trade-records calls count against the partner's rate limit, decided from the key alone while
 * the body is read: a refusal that arrives first answers 429 at once, so a partner over its limit
 * costs no parse and no more reading than had happened (the host drains the rest); a refusal wins
 * over every other answer (429 whatever the body), and the push waits for the decision before its
 * first write. So does the check of the caller's key made again once the body has arrived
 * (`confirmCaller`): a key revoked while the body arrived writes nothing.
 */
export function pushEndpoint(kind: BatchKind, options: { rateLimited: boolean }): Endpoint {
  return async ({ request, services, partner, confirmCaller, noteBatchId }) => {
    const admission = options.rateLimited ? admit(services, partner) : Promise.resolve();
    // Awaited below on every path; this only keeps a refusal from being reported as unhandled meanwhile.
    admission.catch(() => undefined);
    const processor = services.processors[kind];
    // Reads the checks need are started from the body's first bytes, while the rest still arrives.
    let ahead: unknown;
    const abandon = new AbortController();
    const reading = readJsonBody(
      request,
      services.config.maxRequestBodyBytes,
      services.bodyBudget.forPartner(partner.partnerId),
      (head) => {
        ahead = services.ingestion.readAheadFromHead(partner.partnerId, processor, head);
      },
      abandon.signal,
    );
    let body;
    try {
      body = await Promise.race([reading, admission.then(() => reading)]);
    } catch (error) {
      // Refused first, or the body was refused: a body still arriving gives its bytes back now, not
      // once it has arrived (the stream of an answered request need not ever settle).
      abandon.abort();
      void reading.then(
        (late) => {
          late.release();
        },
        () => undefined,
      );
      await admission;
      throw error;
    }
    // Both decisions are taken while the body is parsed and checked, and both come before any write
    // and over any other answer (a refusal of the body included).
    const admitted = Promise.all([admission, confirmCaller()]).then(() => undefined);
    admitted.catch(() => undefined);
    try {
      // The storage SDK writes a request to its socket only on a later turn of the event loop, and
      // parsing the body holds the thread for tens of milliseconds: one turn is given first, so the
      // rate-limit decision is under way while the body is parsed instead of being sent after it.
      if (options.rateLimited) await nextTurn();
      const ack = await services.ingestion.push(partner.partnerId, processor, body.bytes, admitted, ahead, noteBatchId);
      return { status: ack.status === 'ACCEPTED' ? 202 : 200, body: ack, batchId: ack.batch_id };
    } catch (error) {
      await admitted;
      throw error;
    } finally {
      body.release();
    }
  };
}

async function admit(services: AppServices, partner: Partner): Promise<void> {
  const decision = await services.rateLimiter.take(partner.partnerId, services.rateLimitFor(partner), services.clock());
  if (!decision.allowed) throw new ApiError('RATE_LIMITED', undefined, [], decision.retryAfterSeconds);
}

import type { AnonymousEndpoint } from '../Endpoint.js';

/** GET /health: anonymous; 200 when storage answers, 503 otherwise (DESIGN §6). */
export const getHealth: AnonymousEndpoint = async ({ services }) =>
  (await services.health.isHealthy())
    ? { status: 200, body: { status: 'ok' } }
    : { status: 503, body: { status: 'unavailable' }, headers: { 'Retry-After': '5' } };

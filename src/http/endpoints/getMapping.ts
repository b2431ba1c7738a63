import type { Endpoint } from '../Endpoint.js';

/** GET /mappings/transaction-types (contract §4.8). */
export const getMapping: Endpoint = async ({ services, partner }) => ({
  status: 200,
  body: await services.mappingQuery.get(partner.partnerId),
});

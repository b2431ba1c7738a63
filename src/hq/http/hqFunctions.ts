import type { HttpFunctionDefinition, HttpMethod } from '../../functions/FunctionDefinition.js';
import { createHqHandler } from './createHqHandler.js';
import { getBatches } from './endpoints/getBatches.js';
import { getHqOpenApi } from './endpoints/getHqOpenApi.js';
import { getPartner } from './endpoints/getPartner.js';
import { getPartnerList } from './endpoints/getPartnerList.js';
import { getPartners } from './endpoints/getPartners.js';
import { getSales } from './endpoints/getSales.js';
import { getStoreDay } from './endpoints/getStoreDay.js';
import { getStoreDays } from './endpoints/getStoreDays.js';
import { getUnmapped } from './endpoints/getUnmapped.js';
import { getWebhookFailures } from './endpoints/getWebhookFailures.js';
import { getWhoami } from './endpoints/getWhoami.js';
import { postPartnerStatus } from './endpoints/postPartnerStatus.js';
import { postPartnerStores } from './endpoints/postPartnerStores.js';
import { postRevokeKey } from './endpoints/postRevokeKey.js';
import { postStoreStatus } from './endpoints/postStoreStatus.js';
import { putPaymentDirection } from './endpoints/putPaymentDirection.js';
import type { HqAccess, HqEndpoint } from './HqEndpoint.js';

/** Base path of the HQ API, beside the partner API's `pos/v1` (host.json sets no route prefix). */
export const hqApiBase = 'hq/v1';

/** An HQ API function: the host's registration plus the role it needs (its OpenAPI document reads it). */
export interface HqFunctionDefinition extends HttpFunctionDefinition {
  readonly access: HqAccess;
}

/**
 * An HQ API function. Auth level `function` like the partner routes: in Azure the host admits only
 * keys it holds (operator keys are set as host keys too), then the adapter resolves the operator.
 */
function hq(name: string, method: HttpMethod, route: string, access: HqAccess, endpoint: HqEndpoint): HqFunctionDefinition {
  const fullRoute = `${hqApiBase}/${route}`;
  return {
    name,
    access,
    trigger: 'http',
    route: fullRoute,
    methods: [method],
    authLevel: 'function',
    createHandler: (services) => createHqHandler(services.hq, { route: fullRoute, access, endpoint }),
  };
}

/** Every route of the HQ API (docs/hq-api.md). */
export const hqFunctions: readonly HqFunctionDefinition[] = [
  hq('hqWhoami', 'GET', 'whoami', 'read', getWhoami),
  hq('hqStoreDays', 'GET', 'store-days', 'read', getStoreDays),
  hq('hqStoreDay', 'GET', 'store-days/{partner_id}/{store_id}/{business_date}', 'read', getStoreDay),
  hq('hqBatches', 'GET', 'batches', 'read', getBatches),
  hq('hqSales', 'GET', 'sales', 'read', getSales),
  hq('hqUnmapped', 'GET', 'unmapped', 'read', getUnmapped),
  hq('hqWebhookFailures', 'GET', 'webhook-failures', 'read', getWebhookFailures),
  hq('hqPartners', 'GET', 'partners', 'read', getPartners),
  hq('hqPartner', 'GET', 'partners/{partner_id}', 'read', getPartner),
  hq(
    'hqPartnerStores',
    'GET',
    'partners/{partner_id}/stores',
    'read',
    getPartnerList((s, id, n, a) => s.directory.listStores(id, n, a)),
  ),
  hq(
    'hqPartnerKeys',
    'GET',
    'partners/{partner_id}/keys',
    'read',
    getPartnerList((s, id, n, a) => s.directory.listKeys(id, n, a)),
  ),
  hq(
    'hqPartnerPaymentDirections',
    'GET',
    'partners/{partner_id}/payment-directions',
    'read',
    getPartnerList((s, id, n, a) => s.directory.listPaymentDirections(id, n, a)),
  ),
  hq('hqRegisterStores', 'POST', 'partners/{partner_id}/stores', 'admin', postPartnerStores),
  hq('hqRetireStore', 'POST', 'partners/{partner_id}/stores/{store_id}/retire', 'admin', postStoreStatus('RETIRED')),
  hq('hqReactivateStore', 'POST', 'partners/{partner_id}/stores/{store_id}/reactivate', 'admin', postStoreStatus('ACTIVE')),
  hq('hqSetPaymentDirection', 'PUT', 'partners/{partner_id}/payment-directions', 'admin', putPaymentDirection),
  hq('hqDeactivatePartner', 'POST', 'partners/{partner_id}/deactivate', 'admin', postPartnerStatus('INACTIVE')),
  hq('hqActivatePartner', 'POST', 'partners/{partner_id}/activate', 'admin', postPartnerStatus('ACTIVE')),
  hq('hqRevokePartnerKey', 'POST', 'partners/{partner_id}/keys/{key_id}/revoke', 'admin', postRevokeKey),
  // A thunk: the document describes this table, which holds this route too.
  hq(
    'hqOpenApi',
    'GET',
    'openapi.json',
    'read',
    getHqOpenApi(() => hqFunctions),
  ),
];

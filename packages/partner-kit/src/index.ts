/**
 * The partner kit: types of every body of the partner API (generated from the service's JSON
 * Schemas), offline validation with the service's own rules, a reference client, and the webhook
 * signature check, all shared with the service rather than copied.
 */
export type * from './contractTypes.js';
export { validatePayload, pushEndpoints, type PushEndpoint, type ValidateOptions, type ValidationOutcome } from './validatePayload.js';
export { PosClient, type PosClientOptions, type DailyCloseTotals, type DayResult, type PushDayOptions } from './PosClient.js';
export { PosRequestError } from './PosRequestError.js';
export { splitIntoBatches } from './splitIntoBatches.js';
export { PushDayError } from './PushDayError.js';
export type { StoreDayLimits } from '../../../src/domain/validation/storeDayOverLimit.js';
export { verifyWebhook, type WebhookVerification, type VerifyOptions } from '../../../src/events/verifyWebhook.js';
export { WebhookSecret } from '../../../src/events/WebhookSecret.js';

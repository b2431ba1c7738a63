import { settingNames } from '../config/settingNames.js';
import { ConsoleAssets } from '../console/ConsoleAssets.js';
import { serveConsole } from '../console/serveConsole.js';
import { createHttpHandler } from '../http/createHttpHandler.js';
import { withInvocationTelemetry } from '../observability/invocationTelemetry.js';
import { logTelemetry } from '../observability/Telemetry.js';
import type { AnonymousEndpoint, Endpoint } from '../http/Endpoint.js';
import { getDocsAsset, getDocsPage } from '../http/endpoints/getDocs.js';
import { getHealth } from '../http/endpoints/getHealth.js';
import { getOpenApi } from '../http/endpoints/getOpenApi.js';
import { getMapping } from '../http/endpoints/getMapping.js';
import { getReconciliation } from '../http/endpoints/getReconciliation.js';
import { getReferenceTypes } from '../http/endpoints/getReferenceTypes.js';
import { pushEndpoint } from '../http/endpoints/pushEndpoint.js';
import { deleteWebhook, getWebhook, putWebhook, rotateWebhookSecret } from '../http/endpoints/webhookEndpoints.js';
import { isWebhookDeliveryMessage } from '../events/WebhookDeliveryMessage.js';
import { describeError } from '../observability/describeError.js';
import { createQueueHandler } from '../queue/createQueueHandler.js';
import { isClosedDayRerunMessage, isReconcileMessage } from '../queue/messageGuards.js';
import { queueNames } from '../storage/storageNames.js';
import { masterDataRunBudgetMs } from '../services/reports/MasterDataReports.js';
import { partnerDatasets } from '../reports/reportDatasets.js';
import { hqFunctions } from '../hq/http/hqFunctions.js';
import type { FunctionDefinition, HttpFunctionDefinition, HttpMethod } from './FunctionDefinition.js';

/** An endpoint behind a partner key (auth level `function`). */
function http(name: string, method: HttpMethod, route: string, endpoint: Endpoint): HttpFunctionDefinition {
  return {
    name,
    trigger: 'http',
    route,
    methods: [method],
    authLevel: 'function',
    createHandler: (services) => createHttpHandler(services, { route, authenticate: true, endpoint }),
  };
}

/** An endpoint anyone may call (auth level `anonymous`). */
function anonymousHttp(name: string, method: HttpMethod, route: string, endpoint: AnonymousEndpoint): HttpFunctionDefinition {
  return {
    name,
    trigger: 'http',
    route,
    methods: [method],
    authLevel: 'anonymous',
    createHandler: (services) => createHttpHandler(services, { route, authenticate: false, endpoint }),
  };
}

/**
 * Base path of the partner API. host.json sets no route prefix, so every function carries its full
 * route and the HQ API (`hq/v1`) lives beside this one in the same app.
 */
export const partnerApiBase = 'pos/v1';

const partnerRoute = (route: string): string => `${partnerApiBase}/${route}`;

/**
 * Every five minutes, on the minute (NCRONTAB with seconds, UTC).
 * @internal read by the timer's test instead of restating it.
 */
export const sweepSchedule = '0 */5 * * * *';

/**
 * Every 15 minutes, at 7, 22, 37 and 52 past the hour: minutes on which neither the sweep (every
 * five) nor the prune (half past) starts, so the three do not take an instance's CPU at once
 * (NCRONTAB with seconds, UTC).
 * @internal read by the timer's test instead of restating it.
 */
export const masterDataReportsSchedule = '0 7,22,37,52 * * * *';

/**
 * Every hour at half past (NCRONTAB with seconds, UTC).
 * @internal read by the timer's test instead of restating it.
 */
export const rateLimitPruneSchedule = '0 30 * * * *';

/**
 * Every five minutes, half a minute after the sweep starts (NCRONTAB with seconds, UTC): a few
 * reads, kept off the sweep's first moments.
 * @internal read by the timer's test instead of restating it.
 */
export const queueWatchSchedule = '30 */5 * * * *';

/**
 * Every hour at 44 past, a minute on which no other timer starts (NCRONTAB with seconds, UTC): it
 * scans the RECEIVED rows of every partner.
 * @internal read by the timer's test instead of restating it.
 */
export const stuckDayWatchSchedule = '0 44 * * * *';

/**
 * Every hour at 14 past, a minute on which no other timer starts (NCRONTAB with seconds, UTC).
 * @internal read by the timer's test instead of restating it.
 */
export const lostDeliveryWatchSchedule = '0 14 * * * *';

/**
 * Every function of the service, declared once (DESIGN §2). The Azure entry point registers this
 * table with `app.http` / `app.storageQueue` / `app.timer`; the local host serves the same
 * registrations.
 */
export const functionTable: readonly FunctionDefinition[] = [
  http('pushTradeRecords', 'POST', partnerRoute('trade-records'), pushEndpoint('tradeRecords', { rateLimited: true })),
  http('pushDailyClose', 'POST', partnerRoute('daily-close'), pushEndpoint('dailyClose', { rateLimited: false })),
  http('getReconciliation', 'GET', partnerRoute('daily-close/{store_id}/{business_date}'), getReconciliation),
  http('putStores', 'PUT', partnerRoute('stores'), pushEndpoint('stores', { rateLimited: false })),
  http('putProducts', 'PUT', partnerRoute('products'), pushEndpoint('products', { rateLimited: false })),
  http('putMapping', 'PUT', partnerRoute('mappings/transaction-types'), pushEndpoint('mappings', { rateLimited: false })),
  http('getMapping', 'GET', partnerRoute('mappings/transaction-types'), getMapping),
  http('getReferenceTransactionTypes', 'GET', partnerRoute('reference/transaction-types'), getReferenceTypes),
  http('putWebhook', 'PUT', partnerRoute('webhook'), putWebhook),
  http('getWebhook', 'GET', partnerRoute('webhook'), getWebhook),
  http('deleteWebhook', 'DELETE', partnerRoute('webhook'), deleteWebhook),
  http('rotateWebhookSecret', 'POST', partnerRoute('webhook/rotate-secret'), rotateWebhookSecret),
  anonymousHttp('health', 'GET', partnerRoute('health'), getHealth),
  anonymousHttp(
    'partnerOpenApi',
    'GET',
    partnerRoute('openapi.json'),
    getOpenApi(() => functionTable),
  ),
  anonymousHttp('partnerDocs', 'GET', partnerRoute('docs'), getDocsPage),
  anonymousHttp('partnerDocsAsset', 'GET', partnerRoute('docs/{asset}'), getDocsAsset),
  ...hqFunctions,
  {
    // The HQ console's static files, built by `npm run build` into dist/console.
    name: 'console',
    trigger: 'http',
    route: 'console/{*path}',
    methods: ['GET'],
    authLevel: 'anonymous',
    createHandler: (services) => serveConsole(() => ConsoleAssets.load(services.consoleAssetsDir)),
  },
  {
    name: 'reconcileDay',
    trigger: 'storageQueue',
    queueName: queueNames.reconcile,
    connection: settingNames.storage,
    createHandler: (services) =>
      createQueueHandler(
        'reconcileDay',
        isReconcileMessage,
        (message, telemetry, log) => services.reconciliationSlots.reconcile(services.reconciler, message, telemetry, log),
        (m) => ({ partner: m.partnerId, store: m.storeId, business_date: m.businessDate, run: m.runId }),
      ),
  },
  {
    // One page of closed days to reconcile again after a mapping upload or a direction change.
    name: 'rerunClosedDays',
    trigger: 'storageQueue',
    queueName: queueNames.closedDayReruns,
    connection: settingNames.storage,
    createHandler: (services) =>
      createQueueHandler(
        'rerunClosedDays',
        isClosedDayRerunMessage,
        (message) => services.closedDayReruns.runPage(message),
        (m) => ({ partner: m.partnerId, kind: m.kind }),
      ),
  },
  {
    // Finishes pushes cut off before their commit. A timer, not a message per push: on Flex
    // Consumption queue length (delayed messages included) drives scale-out.
    name: 'sweepPendingBatches',
    trigger: 'timer',
    schedule: sweepSchedule,
    createHandler: (services) => async (_timer, context) => {
      // A batch the sweep finds FAILED raises HQ's figure in this run's log.
      const summary = await withInvocationTelemetry(logTelemetry(context.info.bind(context)), () => services.sweeper.sweepStale());
      context.info(
        `sweepPendingBatches: ${summary.examined} stale, ${summary.alreadyFinished} already finished, ${summary.completed} completed, ${summary.abandoned} dropped, ${summary.failed} failed, ${summary.leftPending} left pending, ${summary.fragmentsStaged} report fragments staged${summary.stoppedAtBudget ? '; stopped at its time budget, the rest is left for the next sweep' : ''}`,
      );
      if (summary.listingUnavailable) {
        context.warn(
          `sweepPendingBatches: listing the pending index stopped (${describeError(summary.listingUnavailable)}); the rows not reached are left for the next sweep`,
        );
      }
      for (const { partnerId, batchId, error } of summary.rowFailures) {
        context.warn(`sweepPendingBatches: batch ${batchId} of partner ${partnerId} failed and is left pending: ${describeError(error)}`);
      }
    },
  },
  {
    // The master-data datasets for BI: each partner's stores, products and transaction-type
    // mapping. A file is rewritten only when what it is built from changed since it was written.
    name: 'writeMasterDataReports',
    trigger: 'timer',
    schedule: masterDataReportsSchedule,
    createHandler: (services) => async (_timer, context) => {
      const summary = await withInvocationTelemetry(logTelemetry(context.info.bind(context)), () =>
        services.masterDataReports.writeAll(masterDataRunBudgetMs),
      );
      const files = partnerDatasets.map((dataset) => {
        const { written, unchanged, removed } = summary.datasets[dataset];
        return `${dataset} files ${written} written, ${unchanged} unchanged, ${removed} removed`;
      });
      context.info(
        `writeMasterDataReports: ${summary.partners} partners; ${files.join('; ')}; ${summary.failures.length} partners failed${summary.notReached > 0 ? `; ${summary.notReached} partners not reached: stopped at its time budget, the next run starts elsewhere in the list` : ''}`,
      );
      for (const { partnerId, error } of summary.failures.slice(0, 10)) {
        context.warn(`writeMasterDataReports: the files of partner ${partnerId} were not all written: ${describeError(error)}`);
      }
    },
  },
  {
    // The rate limit counts each partner's calls in a row per minute; this removes the rows of
    // windows that are over, which nothing reads again.
    name: 'pruneRateLimitWindows',
    trigger: 'timer',
    schedule: rateLimitPruneSchedule,
    createHandler: (services) => async (_timer, context) => {
      const { removed, stoppedAtBudget } = await withInvocationTelemetry(logTelemetry(context.info.bind(context)), () =>
        services.rateLimiter.prune(services.clock()),
      );
      context.info(
        `pruneRateLimitWindows: ${removed} rate-limit windows that ended removed${stoppedAtBudget ? '; stopped at its time budget, the rest is left for the next run' : ''}`,
      );
    },
  },
  {
    // For HQ's alerts, what no handler can report: the messages in each poison queue (those moved
    // there by a crash or a timeout of their last attempt included), and how long due reconcile
    // messages have waited untaken. Its lines every 5 minutes are also the service's heartbeat.
    name: 'watchQueues',
    trigger: 'timer',
    schedule: queueWatchSchedule,
    createHandler: (services) => async (_timer, context) => {
      const telemetry = logTelemetry(context.info.bind(context));
      const [depths, backlog] = await Promise.all([services.poisonQueues.report(telemetry), services.reconcileBacklog.report(telemetry)]);
      const waiting = depths.filter((depth) => depth.waiting > 0);
      if (waiting.length > 0)
        context.warn(`watchQueues: messages wait for HQ in ${waiting.map((depth) => `${depth.queue} (${depth.waiting})`).join(', ')}`);
      if (backlog.messages > 0)
        context.info(`watchQueues: ${backlog.messages} reconcile messages can be taken, the longest due for ${backlog.waitingSeconds} s`);
    },
  },
  {
    // For HQ's alerts: store-days whose reconcile message is gone (expired after 7 days in a poison
    // queue, deleted, cleared) stay RECEIVED with nothing to reconcile them; the rows say so.
    name: 'watchStuckDays',
    trigger: 'timer',
    schedule: stuckDayWatchSchedule,
    createHandler: (services) => async (_timer, context) => {
      const { stuck, named } = await services.stuckDays.report(logTelemetry(context.info.bind(context)));
      if (stuck > 0) {
        const days = named.map((day) => `${day.partnerId} ${day.storeId} ${day.businessDate}`).join(', ');
        context.warn(
          `watchStuckDays: ${stuck} store-day(s) RECEIVED with no run to come (${days}${stuck > named.length ? ', …' : ''}): npm run hq -- reconciliation rerun <partner> reconciles them`,
        );
      }
    },
  },
  {
    // An event whose delivery message is gone (expired after 7 days in a poison queue, deleted,
    // cleared) is stored with nothing to deliver it: well past its retries it is dead-lettered.
    name: 'deadLetterLostDeliveries',
    trigger: 'timer',
    schedule: lostDeliveryWatchSchedule,
    createHandler: (services) => async (_timer, context) => {
      const { deadLettered, dropped } = await services.lostDeliveries.run(logTelemetry(context.info.bind(context)));
      if (deadLettered > 0) {
        context.warn(
          `deadLetterLostDeliveries: ${deadLettered} webhook event(s) whose delivery message was lost dead-lettered: npm run hq -- webhook failures lists them, webhook resend sends them`,
        );
      }
      if (dropped > 0) context.info(`deadLetterLostDeliveries: ${dropped} lost event(s) no endpoint takes any more dropped`);
    },
  },
  {
    // Each message is one attempt of one event, bounded by the attempt time (10 s); a failure
    // queues the next attempt with its delay and ends the run, so nothing waits in a slot, and a
    // partner's endpoint takes at most a few of the batch's slots at once (DeliveryPolicy).
    name: 'deliverWebhook',
    trigger: 'storageQueue',
    queueName: queueNames.webhookDeliveries,
    connection: settingNames.storage,
    createHandler: (services) =>
      createQueueHandler(
        'deliverWebhook',
        isWebhookDeliveryMessage,
        (message, telemetry) => services.webhookDelivery.deliver(message, telemetry),
        (m) => ({ partner: m.partnerId, event: m.eventId }),
      ),
  },
];

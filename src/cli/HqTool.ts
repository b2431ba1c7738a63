import { randomBytes } from 'node:crypto';
import type { PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import { hashApiKey } from '../services/hashApiKey.js';
import { classifyReportError } from '../services/reports/classifyReportError.js';
import { createStoreDayReportService } from '../services/createStoreDayReportService.js';
import type { ClosedDayReruns } from '../services/reruns/ClosedDayReruns.js';
import { createClosedDayReruns } from '../services/reruns/createClosedDayReruns.js';
import { ApiKeyRepository } from '../storage/ApiKeyRepository.js';
import { BatchLedger } from '../storage/BatchLedger.js';
import { BatchLedgerListing } from '../storage/BatchLedgerListing.js';
import { PartnerRepository } from '../storage/PartnerRepository.js';
import { PaymentDirectionRepository } from '../storage/PaymentDirectionRepository.js';
import { ReconciliationRepository, type ReconciliationStatus } from '../storage/ReconciliationRepository.js';
import type { StorageClients } from '../storage/StorageClients.js';
import {
  StoreRegistrationRepository,
  type StoreRegistration,
  type StoreRegistrationStatus,
} from '../storage/StoreRegistrationRepository.js';
import { ApiError } from '../errors/ApiError.js';
import { HqRequestValidator } from '../hq/http/HqRequestValidator.js';
import type { BodyName } from '../hq/http/hqSchemas.js';
import { operatorHostKeyName, operatorNamePattern, operatorRoles, OperatorKeys } from '../hq/services/OperatorKeys.js';
import { PartnerAdmin } from '../hq/services/PartnerAdmin.js';
import { keyStatus } from '../services/keyStatus.js';
import { OperatorKeyRepository, type OperatorRole } from '../storage/OperatorKeyRepository.js';
import { WebhookDeadLetterRepository } from '../storage/WebhookDeadLetterRepository.js';
import { maxWebhookFailures, WebhookFailureQuery } from '../services/webhooks/WebhookFailureQuery.js';
import { hqUsage } from './hqUsage.js';
import { listBatches } from './listBatches.js';
import { downloadReports } from './downloadReports.js';
import { hostKeyName, type HostKeys, type HostKeysFactory } from './HostKeys.js';
import { parseArgs, UsageError, type OptionName, type ParsedArgs } from './parseArgs.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';
import { WebhookCommands } from './WebhookCommands.js';
import { compareCodeUnits } from '../domain/compareCodeUnits.js';

export interface HqOutput {
  out(line: string): void;
  err(line: string): void;
}

/** Where the tool finds the function app whose host keys it keeps in step (absent: local use). */
export interface HqToolOptions {
  readonly clock?: () => Date;
  readonly hostKeys?: HostKeysFactory;
  /** Settings (environment) that may name the function app instead of the options. */
  readonly settings?: Readonly<Record<string, string | undefined>>;
}

/** Settings that name the function app, so operators need not repeat the options. */
const functionAppSettingNames = {
  functionApp: 'POS_FUNCTION_APP',
  resourceGroup: 'POS_RESOURCE_GROUP',
  subscription: 'AZURE_SUBSCRIPTION_ID',
} as const;

/** The positional words after a command's own, already counted against the command's arguments. */
class Positionals {
  constructor(private readonly words: readonly string[]) {}

  at(index: number): string {
    const word = this.words[index];
    if (word === undefined) throw new UsageError(`missing argument ${String(index + 1)}`);
    return word;
  }

  rest(from: number): string[] {
    return this.words.slice(from);
  }
}

type Options = ParsedArgs['options'];

/** One command: its words, its positional arguments (a trailing `...` takes the rest), its options. */
interface Command {
  readonly words: string;
  readonly args: readonly string[];
  readonly options: readonly OptionName[];
  readonly run: (args: Positionals, options: Options) => Promise<void>;
}

const partnerIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const azureOptions: readonly OptionName[] = ['function-app', 'resource-group', 'subscription'];

/** The HQ operator's commands: partners, keys, store registrations, payment directions, results. */
export class HqTool {
  private readonly partners: PartnerRepository;
  private readonly keys: ApiKeyRepository;
  private readonly registrations: StoreRegistrationRepository;
  private readonly directions: PaymentDirectionRepository;
  private readonly results: ReconciliationRepository;
  private readonly ledger: BatchLedger;
  private readonly uncommitted: BatchLedgerListing;
  private readonly webhookFailures: WebhookFailureQuery;
  private readonly webhooks: WebhookCommands;
  private readonly clock: () => Date;
  private readonly commands: readonly Command[];
  private readonly admin: PartnerAdmin;
  private readonly reruns: ClosedDayReruns;
  private readonly operators: OperatorKeys;
  private readonly validator = new HqRequestValidator();

  constructor(
    private readonly storage: StorageClients,
    private readonly io: HqOutput,
    private readonly options: HqToolOptions = {},
  ) {
    const t = storage.tables;
    this.partners = new PartnerRepository(t.partners);
    this.keys = new ApiKeyRepository(t.apiKeys);
    this.registrations = new StoreRegistrationRepository(t.storeRegistrations);
    this.directions = new PaymentDirectionRepository(t.paymentDirections);
    this.results = new ReconciliationRepository(t.reconciliations);
    this.ledger = new BatchLedger(t.batchLedger);
    this.uncommitted = new BatchLedgerListing(t.batchLedger, { pending: t.pendingBatches, failed: t.failedBatches });
    this.webhookFailures = new WebhookFailureQuery(new WebhookDeadLetterRepository(t.webhookDeadLetters));
    this.clock = options.clock ?? (() => new Date());
    this.webhooks = new WebhookCommands(
      storage,
      (line) => {
        this.io.out(line);
      },
      this.clock,
    );
    this.reruns = createClosedDayReruns(storage, this.clock);
    // The same rules as the HQ API's admin actions and operator keys (a direction set here also
    // has the closed days that used the type reconciled again, through the service's queues).
    this.admin = new PartnerAdmin(this.partners, this.registrations, this.directions, this.reruns, this.keys, this.clock);
    this.operators = new OperatorKeys(new OperatorKeyRepository(t.operatorKeys), this.clock);
    // Adding a command is adding a line here (and one to hqUsage).
    this.commands = [
      { words: 'partner create', args: ['partner_id'], options: ['name'], run: (a, o) => this.createPartner(a.at(0), o.name) },
      { words: 'partner deactivate', args: ['partner_id'], options: [], run: (a) => this.setPartnerStatus(a.at(0), 'INACTIVE') },
      { words: 'partner activate', args: ['partner_id'], options: [], run: (a) => this.setPartnerStatus(a.at(0), 'ACTIVE') },
      {
        words: 'partner set-rate-limit',
        args: ['partner_id', 'calls per minute'],
        options: [],
        run: (a) => this.setRateLimit(a.at(0), a.at(1)),
      },
      { words: 'partner list', args: [], options: [], run: () => this.listPartners() },
      {
        words: 'key issue',
        args: ['partner_id'],
        options: ['expires', ...azureOptions],
        run: (a, o) => this.issueKey(a.at(0), o),
      },
      {
        words: 'key revoke',
        args: ['partner_id', 'key_id'],
        options: azureOptions,
        run: (a, o) => this.revokeKey(a.at(0), a.at(1), o),
      },
      { words: 'key list', args: ['partner_id'], options: [], run: (a) => this.listKeys(a.at(0)) },
      {
        words: 'store register',
        args: ['partner_id', 'store_id', '...'],
        options: [],
        run: (a) => this.registerStores(a.at(0), a.rest(1)),
      },
      { words: 'store list', args: ['partner_id'], options: [], run: (a) => this.listStores(a.at(0)) },
      {
        words: 'store retire',
        args: ['partner_id', 'store_id'],
        options: [],
        run: (a) => this.setStoreStatus(a.at(0), a.at(1), 'RETIRED'),
      },
      {
        words: 'store reactivate',
        args: ['partner_id', 'store_id'],
        options: [],
        run: (a) => this.setStoreStatus(a.at(0), a.at(1), 'ACTIVE'),
      },
      {
        words: 'payment-type set-direction',
        args: ['partner_id', 'payment_type', '1|-1|0'],
        options: [],
        run: (a) => this.setDirection(a.at(0), a.at(1), a.at(2)),
      },
      { words: 'reconciliation list', args: [], options: ['partner', 'status', 'date'], run: (_, o) => this.listReconciliations(o) },
      {
        words: 'reconciliation rerun',
        args: ['partner_id'],
        options: ['from', 'to'],
        run: (a, o) => this.rerunReconciliations(a.at(0), o),
      },
      {
        words: 'batch list',
        args: [],
        options: ['state', 'partner'],
        run: async (_, o) =>
          listBatches(
            this.ledger,
            this.uncommitted,
            (line) => {
              this.io.out(line);
            },
            // The partner as stored: a typed `ACME` lists `acme`'s batches, an unknown one is refused.
            { ...o, partner: o.partner === undefined ? undefined : await this.resolvePartner(o.partner) },
          ),
      },
      {
        words: 'operator issue',
        args: ['name'],
        options: ['role', 'expires', ...azureOptions],
        run: (a, o) => this.issueOperatorKey(a.at(0), o),
      },
      { words: 'operator list', args: [], options: [], run: () => this.listOperatorKeys() },
      {
        words: 'operator revoke',
        args: ['name', 'key_id'],
        options: azureOptions,
        run: (a, o) => this.revokeOperatorKey(a.at(0), a.at(1), o),
      },
      { words: 'webhook failures', args: [], options: ['partner', 'limit'], run: (_, o) => this.listWebhookFailures(o) },
      { words: 'webhook list', args: [], options: [], run: () => this.webhooks.list() },
      {
        words: 'webhook show',
        args: ['partner_id'],
        options: [],
        run: async (a) => this.webhooks.show(await this.resolvePartner(a.at(0))),
      },
      {
        words: 'webhook remove',
        args: ['partner_id'],
        options: [],
        run: async (a) => this.webhooks.remove(await this.resolvePartner(a.at(0))),
      },
      {
        words: 'webhook resend',
        args: ['partner_id', 'event_id'],
        options: [],
        run: async (a) => this.webhooks.resend(await this.resolvePartner(a.at(0)), a.at(1)),
      },
      {
        words: 'webhook dismiss',
        args: ['partner_id', 'event_id'],
        options: [],
        run: async (a) => this.webhooks.dismiss(await this.resolvePartner(a.at(0)), a.at(1)),
      },
      { words: 'reports rebuild', args: [], options: ['partner', 'from', 'to'], run: (_, o) => this.rebuildReports(o) },
      {
        words: 'reports download',
        args: ['folder'],
        options: ['partner'],
        run: async (a, o) => {
          const partnerId = o.partner === undefined ? undefined : await this.resolvePartner(o.partner);
          const files = await downloadReports(this.storage.reports, a.at(0), partnerId);
          this.io.out(`${files} report file(s) copied into ${printable(a.at(0))}`);
        },
      },
    ];
  }

  /** Runs one command line; returns the exit code. */
  async run(argv: readonly string[]): Promise<number> {
    try {
      const args = parseArgs(argv);
      if (args.help || args.words.length === 0) {
        this.io.out(hqUsage);
        return args.help ? 0 : 2;
      }
      await this.dispatch(args.words, args.options);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) {
        this.io.err(`error: ${error.message}\nRun with --help for the commands.`);
        return 2;
      }
      // Usage errors and refusals quote what was typed only through printable() already.
      if (error instanceof Refusal || error instanceof ApiError) {
        this.io.err(`error: ${error.message}`);
        return 1;
      }
      this.io.err(`error: request failed: ${printable(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error))}`);
      return 1;
    }
  }

  private async dispatch(words: string[], options: Options): Promise<void> {
    const command = this.commands.find((c) => c.words === words.slice(0, 2).join(' '));
    if (!command) throw new UsageError(`unknown command "${printable(words.join(' '))}"`);
    for (const name of Object.keys(options) as OptionName[]) {
      if (!command.options.includes(name)) throw new UsageError(`${command.words} does not take --${name}`);
    }
    const rest = words.slice(2);
    const takesRest = command.args.at(-1) === '...';
    const needed = takesRest ? command.args.length - 1 : command.args.length;
    if (takesRest ? rest.length < needed : rest.length !== needed) {
      throw new UsageError(`expected ${command.words} ${command.args.map((a) => (a === '...' ? '[...]' : `<${a}>`)).join(' ')}`);
    }
    await command.run(new Positionals(rest), options);
  }

  /**
   * Partner ids are case-insensitive for operators: a new id that differs from an existing one only
   * in case is refused (no `Acme` beside `acme`), and every other command finds the partner whatever
   * the case it is typed in.
   */
  private async createPartner(partnerId: string, name: string | undefined): Promise<void> {
    if (!partnerIdPattern.test(partnerId)) {
      throw new UsageError('partner_id must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
    const lookalike = (await this.partners.list()).find((p) => p.partnerId.toLowerCase() === partnerId.toLowerCase());
    if (lookalike) throw new Refusal(`partner ${printable(lookalike.partnerId)} already exists (partner ids are case-insensitive)`);
    if (!(await this.partners.create(partnerId, name ?? partnerId, this.clock()))) throw new Refusal(`partner ${partnerId} already exists`);
    this.io.out(`partner ${partnerId} created (ACTIVE)`);
  }

  private async setPartnerStatus(typed: string, status: 'ACTIVE' | 'INACTIVE'): Promise<void> {
    const partnerId = await this.resolvePartner(typed);
    await this.admin.setStatus(partnerId, status);
    this.io.out(`partner ${printable(partnerId)} is ${status}`);
  }

  private async setRateLimit(typed: string, limitText: string): Promise<void> {
    const limit = limitText === 'default' ? null : Number(limitText);
    if (limit !== null && (!Number.isSafeInteger(limit) || limit < 1))
      throw new UsageError('the rate limit must be a whole number of calls per minute, at least 1, or default');
    const partnerId = await this.resolvePartner(typed);
    if (!(await this.partners.update(partnerId, { rateLimitPerMinute: limit })))
      throw new Refusal(`partner ${printable(typed)} does not exist`);
    this.io.out(
      limit === null
        ? `partner ${printable(partnerId)} follows the default rate limit (RATE_LIMIT_PER_MINUTE) again`
        : `partner ${printable(partnerId)} may call /trade-records ${limit} times per minute`,
    );
  }

  private async listPartners(): Promise<void> {
    for (const p of await this.partners.list()) {
      this.io.out(`${printable(p.partnerId)}\t${p.status}\t${p.rateLimitPerMinute ?? 'default'}\t${printable(p.name)}`);
    }
  }

  private async issueKey(typed: string, options: Options): Promise<void> {
    const partnerId = await this.resolvePartner(typed);
    let expiresAt: string | undefined;
    if (options.expires !== undefined) {
      const time = Date.parse(options.expires);
      if (Number.isNaN(time)) throw new UsageError('--expires must be an ISO 8601 date or date-time');
      if (time <= this.clock().getTime()) throw new UsageError('--expires must be in the future');
      expiresAt = new Date(time).toISOString();
    }
    const hostKeys = this.hostKeysFor(options);
    const key = randomBytes(32).toString('base64url');
    const keyId = `key-${randomBytes(4).toString('hex')}`;
    const hostKey = hostKeyName(partnerId, keyId);
    // The host key first: if storing the hash then fails, the key opens nothing the service accepts,
    // and it is taken back; the other order could leave a key the service knows and the host refuses.
    if (hostKeys) await hostKeys.keys.set(hostKey, key);
    try {
      await this.keys.create({ keyHash: hashApiKey(key), keyId, partnerId, createdAt: this.clock().toISOString(), expiresAt });
    } catch (error) {
      if (hostKeys) await hostKeys.keys.remove(hostKey).catch(() => undefined);
      throw error;
    }
    this.io.out(`key ${keyId} issued for partner ${printable(partnerId)}${expiresAt ? `, expires ${expiresAt}` : ''}.`);
    if (hostKeys) {
      this.io.out(
        `Host key ${hostKey} set on function app ${printable(hostKeys.app)}; Azure may take up to a minute before it opens the API.`,
      );
    } else {
      this.io.out('No function app named (--function-app/--resource-group): in Azure, issue keys with them so the host knows the key.');
    }
    this.io.out('It is shown once and stored only as a hash (the host keeps its own copy). Hand it over through a secure channel.');
    this.io.out(key);
  }

  private async revokeKey(typed: string, keyId: string, options: Options): Promise<void> {
    const partnerId = await this.resolvePartner(typed);
    const hostKeys = this.hostKeysFor(options);
    // The service refuses the key from this moment; the host key goes next.
    if (!(await this.keys.listForPartner(partnerId)).some((k) => k.keyId === keyId)) {
      throw new Refusal(`partner ${printable(typed)} has no key ${printable(keyId)}`);
    }
    await this.admin.revokeKey(partnerId, keyId);
    this.io.out(`key ${printable(keyId)} of partner ${printable(partnerId)} revoked`);
    if (hostKeys) {
      const hostKey = hostKeyName(partnerId, keyId);
      try {
        await hostKeys.keys.remove(hostKey);
      } catch (error) {
        throw new Refusal(
          `the key is revoked, but deleting host key ${hostKey} failed (${printable(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error))}); run the command again`,
        );
      }
      this.io.out(`host key ${hostKey} deleted from function app ${printable(hostKeys.app)}`);
    }
  }

  private async listKeys(typed: string): Promise<void> {
    const partnerId = await this.resolvePartner(typed);
    this.io.out('key_id\tstatus\tcreated\texpires');
    for (const k of await this.keys.listForPartner(partnerId)) {
      const expired = k.expiresAt && Date.parse(k.expiresAt) <= this.clock().getTime();
      this.io.out(
        `${printable(k.keyId)}\t${expired && k.status === 'ACTIVE' ? 'EXPIRED' : k.status}\t${k.createdAt}\t${k.expiresAt ?? 'never'}`,
      );
    }
  }

  private async registerStores(typed: string, storeIds: string[]): Promise<void> {
    this.checked('registerStores', { store_ids: storeIds }, (path) => `store id ${String(Number(path.split('/')[2] ?? 0) + 1)}`);
    const partnerId = await this.resolvePartner(typed);
    const { registered, alreadyRegistered } = await this.admin.registerStores(partnerId, storeIds);
    const already = alreadyRegistered.length;
    this.io.out(
      `${registered.length} store(s) registered for partner ${printable(partnerId)}${already > 0 ? `; ${already} already were` : ''}`,
    );
  }

  private async listStores(typed: string): Promise<void> {
    const partnerId = await this.resolvePartner(typed);
    this.io.out('store_id\tstatus\tregistered\tretired');
    for (const r of await this.registrations.listRegistrations(partnerId)) {
      this.io.out(`${printable(r.storeId)}\t${r.status}\t${r.registeredAt ?? '-'}\t${r.retiredAt ?? '-'}`);
    }
  }

  /** Store ids are matched exactly, as partners send them (only the partner id is case-insensitive). */
  private async setStoreStatus(typed: string, storeId: string, status: StoreRegistrationStatus): Promise<void> {
    const partnerId = await this.resolvePartner(typed);
    let registration: StoreRegistration;
    try {
      registration = await this.admin.setStoreStatus(partnerId, storeId, status);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'STORE_NOT_FOUND') {
        throw new Refusal(`partner ${printable(partnerId)} has no store ${printable(storeId)} (store list shows its stores)`);
      }
      throw error;
    }
    const store = `store ${printable(storeId)} of partner ${printable(partnerId)}`;
    if (registration.status === 'RETIRED') {
      this.io.out(`${store} is RETIRED since ${registration.retiredAt ?? '-'}; its data stays, and store reactivate undoes it`);
      // The service trusts a registration it read for PARTNER_CACHE_SECONDS (Configuration, README).
      this.io.out('The service refuses what the partner sends for it within PARTNER_CACHE_SECONDS (30 s in Azure).');
    } else {
      this.io.out(`${store} is ACTIVE: the partner may send for it again at once`);
    }
  }

  private async setDirection(typed: string, paymentType: string, directionText: string): Promise<void> {
    if (!['1', '-1', '0'].includes(directionText)) throw new UsageError('the direction must be 1, -1 or 0');
    this.checked('paymentDirection', { payment_type: paymentType, direction: Number(directionText) }, (path) => path.slice(1));
    const partnerId = await this.resolvePartner(typed);
    await this.admin.setPaymentDirection(partnerId, paymentType, Number(directionText) as PaymentDirection);
    this.io.out(`payment_type ${printable(paymentType)} of partner ${printable(partnerId)} counts with direction ${directionText}`);
  }

  /**
   * Checks what was typed against the schema the HQ API checks the same action's body with, so that
   * the tool and the API accept the same ids; a problem is a usage error naming the argument.
   */
  private checked(name: BodyName, body: unknown, argumentAt: (path: string) => string): void {
    try {
      this.validator.body(name, body);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const first = error.details[0];
      throw new UsageError(first ? `${argumentAt(first.path)} ${first.message}` : error.message);
    }
  }

  /**
   * Rewrites the report files of every reconciled store-day in range from the raw batches (history
   * replay, or after a fix), one store-day at a time, with a progress line per store-day. A
   * store-day that fails is reported and skipped; storage failures are tried three times.
   */
  private async rebuildReports(options: Options): Promise<void> {
    const partner = options.partner === undefined ? undefined : await this.resolvePartner(options.partner);
    const days = await this.reconciledDays(partner, options);
    const reports = createStoreDayReportService(this.storage, this.clock);
    let written = 0;
    let failed = 0;
    for (const [i, day] of days.entries()) {
      let outcome = '';
      for (let attempt = 1; ; attempt += 1) {
        try {
          const result = await reports.rebuild(day.partnerId, day.storeId, day.businessDate);
          outcome = result?.status ?? 'not reconciled';
          if (result?.status === 'written') written += 1;
          break;
        } catch (error) {
          const failure = classifyReportError(error);
          if (!failure.permanent && attempt < 3) continue;
          outcome = `${failure.code}: ${failure.message}`;
          failed += 1;
          break;
        }
      }
      this.io.err(
        `[${i + 1}/${days.length}] ${printable(day.partnerId)} ${printable(day.storeId)} ${day.businessDate}: ${printable(outcome)}`,
      );
    }
    this.io.out(`${written} of ${days.length} reconciled store-day(s) rewritten${failed > 0 ? `, ${failed} failed` : ''}`);
    if (failed > 0) throw new Refusal(`${failed} store-day(s) could not be rewritten (see above)`);
  }

  /**
   * Reconciles a partner's reconciled store-days in range again now, through the service's queue,
   * each against its close in effect: after a mapping upload that gave a code already mapped another
   * standard code, or left it out, which reconciles no day by itself.
   */
  private async rerunReconciliations(typedPartnerId: string, options: Options): Promise<void> {
    const partnerId = await this.resolvePartner(typedPartnerId);
    const days = await this.reconciledDays(partnerId, options);
    const scheduled = await this.reruns.rerunDays(partnerId, days);
    this.io.out(`${scheduled} of ${days.length} reconciled store-day(s) scheduled to reconcile again`);
  }

  /** The reconciled (MATCHED or MISMATCHED) store-days of one partner or all, by date range, in order. */
  private async reconciledDays(
    partnerId: string | undefined,
    { from, to }: Options,
  ): Promise<{ partnerId: string; storeId: string; businessDate: string }[]> {
    for (const [name, value] of [
      ['--from', from],
      ['--to', to],
    ] as const) {
      if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new UsageError(`${name} must be YYYY-MM-DD`);
    }
    if (from !== undefined && to !== undefined && from > to) throw new UsageError('--from must not be after --to');
    const days: { partnerId: string; storeId: string; businessDate: string }[] = [];
    for await (const r of this.results.list({ partnerId })) {
      if (r.status === 'RECEIVED' || (from !== undefined && r.businessDate < from) || (to !== undefined && r.businessDate > to)) continue;
      days.push({ partnerId: r.partnerId, storeId: r.storeId, businessDate: r.businessDate });
    }
    return days.sort(
      (a, b) =>
        compareCodeUnits(a.partnerId, b.partnerId) ||
        compareCodeUnits(a.businessDate, b.businessDate) ||
        compareCodeUnits(a.storeId, b.storeId),
    );
  }

  private async listReconciliations(options: Options): Promise<void> {
    const status = options.status;
    if (status && !['RECEIVED', 'MATCHED', 'MISMATCHED'].includes(status)) {
      throw new UsageError('--status must be RECEIVED, MATCHED or MISMATCHED');
    }
    if (options.date && !/^\d{4}-\d{2}-\d{2}$/.test(options.date)) throw new UsageError('--date must be YYYY-MM-DD');
    const partnerId = options.partner === undefined ? undefined : await this.resolvePartner(options.partner);
    this.io.out('partner\tstore\tbusiness_date\tstatus\tchecked_at\tdifferences');
    for await (const r of this.results.list({
      partnerId,
      status: status as ReconciliationStatus | undefined,
      businessDate: options.date,
    })) {
      this.io.out(
        [r.partnerId, r.storeId, r.businessDate, r.status, r.checkedAt ?? '-', r.differences.join(',') || '-'].map(printable).join('\t'),
      );
    }
  }

  private async issueOperatorKey(name: string, options: Options): Promise<void> {
    if (!operatorNamePattern.test(name)) {
      throw new UsageError('the operator name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
    const role = (options.role ?? 'viewer') as OperatorRole;
    if (!operatorRoles.includes(role)) throw new UsageError('--role must be viewer or admin');
    const expiresAt = this.expiryOf(options.expires);
    const hostKeys = this.hostKeysFor(options);
    const { key, record } = await this.operators.issue(name, role, expiresAt);
    const hostKey = operatorHostKeyName(name, record.keyId);
    if (hostKeys) {
      try {
        await hostKeys.keys.set(hostKey, key);
      } catch (error) {
        // Without its host key the key opens nothing in Azure: take it back rather than hand it out.
        await this.operators.revoke(name, record.keyId);
        throw error;
      }
    }
    this.io.out(`operator key ${record.keyId} issued for ${name}, role ${role}${expiresAt ? `, expires ${expiresAt}` : ''}.`);
    this.io.out(
      hostKeys
        ? `Host key ${hostKey} set on function app ${printable(hostKeys.app)}; Azure may take up to a minute before it opens the API.`
        : `No function app named (--function-app/--resource-group): in Azure, also set it as the host key ${hostKey}.`,
    );
    this.io.out('It is shown once and stored only as a hash. Keep it in the tool or browser that uses it, nowhere else.');
    this.io.out(key);
  }

  private async listOperatorKeys(): Promise<void> {
    this.io.out('operator\tkey_id\trole\tstatus\tcreated\texpires');
    for (const k of await this.operators.list()) {
      this.io.out(
        `${printable(k.operator)}\t${printable(k.keyId)}\t${k.role}\t${keyStatus(k, this.clock())}\t${k.createdAt}\t${k.expiresAt ?? 'never'}`,
      );
    }
  }

  /** Dead-lettered deliveries, newest first: ids, classes and the endpoint's origin; never a body, secret or URL path. */
  private async listWebhookFailures(options: Options): Promise<void> {
    let limit: number | undefined;
    if (options.limit !== undefined) {
      limit = Number(options.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > maxWebhookFailures) {
        throw new UsageError(`--limit must be a whole number from 1 to ${maxWebhookFailures}`);
      }
    }
    // Resolved first: an unknown partner is an error alone, not a table header and then an error.
    const partnerId = options.partner === undefined ? undefined : await this.resolvePartner(options.partner);
    this.io.out('dead_lettered_at\tpartner\tevent_id\tevent_type\tattempts\tlast_error\tfirst_attempt_at\tlast_attempt_at\ttarget');
    const failures = await this.webhookFailures.list({ partnerId, limit });
    for (const f of failures.items) {
      const error = f.last_status === null ? f.last_error_class : `${f.last_error_class} ${f.last_status}`;
      this.io.out(
        [
          f.dead_lettered_at,
          f.partner_id,
          f.event_id,
          f.event_type,
          f.attempts,
          error,
          f.first_attempt_at ?? '-',
          f.last_attempt_at ?? '-',
          f.target_origin,
        ]
          .map((cell) => printable(String(cell)))
          .join('\t'),
      );
    }
    if (failures.truncated) {
      this.io.err(`Older failures are left out: raise --limit (at most ${maxWebhookFailures}) or name a --partner.`);
    }
  }

  private async revokeOperatorKey(name: string, keyId: string, options: Options): Promise<void> {
    const hostKeys = this.hostKeysFor(options);
    if (!(await this.operators.revoke(name, keyId))) throw new Refusal(`operator ${printable(name)} has no key ${printable(keyId)}`);
    const hostKey = operatorHostKeyName(name, keyId);
    this.io.out(`operator key ${printable(keyId)} of ${printable(name)} revoked`);
    if (hostKeys) {
      await hostKeys.keys.remove(hostKey);
      this.io.out(`host key ${hostKey} deleted from function app ${printable(hostKeys.app)}`);
    } else {
      this.io.out(`in Azure also delete the host key ${hostKey}`);
    }
  }

  /** `--expires` as an ISO instant in the future, or undefined for a key that does not expire. */
  private expiryOf(expires: string | undefined): string | undefined {
    if (expires === undefined) return undefined;
    const time = Date.parse(expires);
    if (Number.isNaN(time)) throw new UsageError('--expires must be an ISO 8601 date or date-time');
    if (time <= this.clock().getTime()) throw new UsageError('--expires must be in the future');
    return new Date(time).toISOString();
  }

  /** The stored id of the partner an operator typed, whatever its case; refused when there is none. */
  private async resolvePartner(typed: string): Promise<string> {
    if (await this.partners.get(typed)) return typed;
    const matches = (await this.partners.list()).filter((p) => p.partnerId.toLowerCase() === typed.toLowerCase());
    const [only] = matches;
    if (only !== undefined && matches.length === 1) return only.partnerId;
    throw new Refusal(`partner ${printable(typed)} does not exist`);
  }

  /** The function app named by options or settings, with its host keys; undefined for local use. */
  private hostKeysFor(options: Options): { keys: HostKeys; app: string } | undefined {
    const settings = this.options.settings ?? {};
    const functionApp = options['function-app'] ?? settings[functionAppSettingNames.functionApp];
    const resourceGroup = options['resource-group'] ?? settings[functionAppSettingNames.resourceGroup];
    const subscriptionId = options.subscription ?? settings[functionAppSettingNames.subscription];
    if (functionApp === undefined && resourceGroup === undefined) return undefined;
    if (!functionApp || !resourceGroup) throw new UsageError('--function-app and --resource-group go together');
    if (!subscriptionId) {
      throw new UsageError(
        `name the subscription with --subscription or ${functionAppSettingNames.subscription} (az account show --query id -o tsv)`,
      );
    }
    if (!this.options.hostKeys) throw new UsageError('this tool cannot manage host keys here');
    return { keys: this.options.hostKeys({ subscriptionId, resourceGroup, functionApp }), app: functionApp };
  }
}

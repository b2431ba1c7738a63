import { ApiError } from '../errors/ApiError.js';
import { HqRequestValidator } from '../hq/http/HqRequestValidator.js';
import { OperatorKeys } from '../hq/services/OperatorKeys.js';
import { PartnerAdmin } from '../hq/services/PartnerAdmin.js';
import { createClosedDayReruns } from '../services/reruns/createClosedDayReruns.js';
import { ApiKeyRepository } from '../storage/ApiKeyRepository.js';
import { BatchLedger } from '../storage/BatchLedger.js';
import { BatchLedgerListing } from '../storage/BatchLedgerListing.js';
import { OperatorKeyRepository } from '../storage/OperatorKeyRepository.js';
import { PartnerRepository } from '../storage/PartnerRepository.js';
import { PaymentDirectionRepository } from '../storage/PaymentDirectionRepository.js';
import { ReconciliationRepository } from '../storage/ReconciliationRepository.js';
import type { StorageClients } from '../storage/StorageClients.js';
import { StoreRegistrationRepository } from '../storage/StoreRegistrationRepository.js';
import { checkDateOptions } from './calendarDateOption.js';
import { Positionals, type Command } from './Command.js';
import { downloadReports } from './downloadReports.js';
import { functionAppKeys, functionAppOptions } from './functionAppKeys.js';
import type { HostKeysFactory } from './HostKeys.js';
import type { HqContext, HqOutput, Options } from './HqContext.js';
import { hqUsage } from './hqUsage.js';
import { KeyCommands } from './KeyCommands.js';
import { listBatches } from './listBatches.js';
import { parseArgs, UsageError, type OptionName } from './parseArgs.js';
import { PartnerCommands } from './PartnerCommands.js';
import { printable } from './printable.js';
import { ReconciliationCommands } from './ReconciliationCommands.js';
import { Refusal } from './Refusal.js';
import type { StorageEndpoint } from './storageEndpoint.js';
import { WebhookCommands } from './WebhookCommands.js';

/** Where the tool finds the function app whose host keys it keeps in step (absent: local use). */
export interface HqToolOptions {
  readonly clock?: () => Date;
  readonly hostKeys?: HostKeysFactory;
  /** Settings (environment) that may name the function app instead of the options. */
  readonly settings?: Readonly<Record<string, string | undefined>>;
  /**
   * The storage the tool acts on (main.ts gives it): named on stderr before each command, and a
   * function app is refused when it is the local emulator. Absent: neither.
   */
  readonly storageEndpoint?: StorageEndpoint;
}

/**
 * The HQ operator's commands: partners, keys, store registrations, payment directions, results,
 * batches, webhooks and report files. This file is the table of commands and how a command line
 * reaches one; each group's work is in its own file.
 */
export class HqTool {
  private readonly partners: PartnerRepository;
  private readonly commands: readonly Command[];
  private readonly storageEndpoint: StorageEndpoint | undefined;

  constructor(
    private readonly storage: StorageClients,
    private readonly io: HqOutput,
    options: HqToolOptions = {},
  ) {
    const t = storage.tables;
    const clock = options.clock ?? (() => new Date());
    this.storageEndpoint = options.storageEndpoint;
    this.partners = new PartnerRepository(t.partners);
    const context: HqContext = {
      io,
      clock,
      resolvePartner: (typed) => this.resolvePartner(typed),
      functionAppKeys: (given) => functionAppKeys(given, options.settings ?? {}, options.hostKeys, options.storageEndpoint),
    };
    const registrations = new StoreRegistrationRepository(t.storeRegistrations);
    const keys = new ApiKeyRepository(t.apiKeys);
    const results = new ReconciliationRepository(t.reconciliations);
    const reruns = createClosedDayReruns(storage, clock);
    // The same rules as the HQ API's admin actions and operator keys (a direction set here also
    // has the closed days that used the type reconciled again, through the service's queues).
    const admin = new PartnerAdmin(this.partners, registrations, new PaymentDirectionRepository(t.paymentDirections), reruns, keys, clock);
    const operators = new OperatorKeys(new OperatorKeyRepository(t.operatorKeys), clock);
    const partners = new PartnerCommands(context, this.partners, registrations, admin, new HqRequestValidator());
    const keyCommands = new KeyCommands(context, keys, admin, operators);
    const days = new ReconciliationCommands(context, storage, results, reruns);
    const webhooks = new WebhookCommands(context, storage);
    const ledger = new BatchLedger(t.batchLedger);
    const uncommitted = new BatchLedgerListing(t.batchLedger, { pending: t.pendingBatches, failed: t.failedBatches });
    const resolved = (typed: string | undefined) => (typed === undefined ? undefined : this.resolvePartner(typed));
    // Adding a command is adding a line here (and one to hqUsage).
    this.commands = [
      { words: 'partner create', args: ['partner_id'], options: ['name'], run: (a, o) => partners.create(a.at(0), o.name) },
      { words: 'partner deactivate', args: ['partner_id'], options: [], run: (a) => partners.setStatus(a.at(0), 'INACTIVE') },
      { words: 'partner activate', args: ['partner_id'], options: [], run: (a) => partners.setStatus(a.at(0), 'ACTIVE') },
      {
        words: 'partner set-rate-limit',
        args: ['partner_id', 'calls per minute'],
        options: [],
        run: (a) => partners.setRateLimit(a.at(0), a.at(1)),
      },
      { words: 'partner list', args: [], options: [], run: () => partners.list() },
      {
        words: 'key issue',
        args: ['partner_id'],
        options: ['expires', ...functionAppOptions],
        run: (a, o) => keyCommands.issue(a.at(0), o),
      },
      {
        words: 'key revoke',
        args: ['partner_id', 'key_id'],
        options: functionAppOptions,
        run: (a, o) => keyCommands.revoke(a.at(0), a.at(1), o),
      },
      { words: 'key list', args: ['partner_id'], options: [], run: (a) => keyCommands.list(a.at(0)) },
      {
        words: 'store register',
        args: ['partner_id', 'store_id', '...'],
        options: [],
        run: (a) => partners.registerStores(a.at(0), a.rest(1)),
      },
      { words: 'store list', args: ['partner_id'], options: [], run: (a) => partners.listStores(a.at(0)) },
      {
        words: 'store retire',
        args: ['partner_id', 'store_id'],
        options: [],
        run: (a) => partners.setStoreStatus(a.at(0), a.at(1), 'RETIRED'),
      },
      {
        words: 'store reactivate',
        args: ['partner_id', 'store_id'],
        options: [],
        run: (a) => partners.setStoreStatus(a.at(0), a.at(1), 'ACTIVE'),
      },
      {
        words: 'payment-type set-direction',
        args: ['partner_id', 'payment_type', '1|-1|0'],
        options: [],
        run: (a) => partners.setDirection(a.at(0), a.at(1), a.at(2)),
      },
      { words: 'reconciliation list', args: [], options: ['partner', 'status', 'date'], run: (_, o) => days.list(o) },
      { words: 'reconciliation rerun', args: ['partner_id'], options: ['from', 'to'], run: (a, o) => days.rerun(a.at(0), o) },
      {
        words: 'batch list',
        args: [],
        options: ['state', 'partner'],
        run: async (_, o) =>
          listBatches(
            ledger,
            uncommitted,
            (line) => {
              io.out(line);
            },
            // The partner as stored: a typed `ACME` lists `acme`'s batches, an unknown one is refused.
            { ...o, partner: await resolved(o.partner) },
          ),
      },
      {
        words: 'operator issue',
        args: ['name'],
        options: ['role', 'expires', ...functionAppOptions],
        run: (a, o) => keyCommands.issueOperator(a.at(0), o),
      },
      { words: 'operator list', args: [], options: [], run: () => keyCommands.listOperators() },
      {
        words: 'operator revoke',
        args: ['name', 'key_id'],
        options: functionAppOptions,
        run: (a, o) => keyCommands.revokeOperator(a.at(0), a.at(1), o),
      },
      { words: 'webhook failures', args: [], options: ['partner', 'limit'], run: (_, o) => webhooks.failures(o) },
      { words: 'webhook list', args: [], options: [], run: () => webhooks.list() },
      {
        words: 'webhook show',
        args: ['partner_id'],
        options: [],
        run: async (a) => webhooks.show(await this.resolvePartner(a.at(0))),
      },
      {
        words: 'webhook remove',
        args: ['partner_id'],
        options: [],
        run: async (a) => webhooks.remove(await this.resolvePartner(a.at(0))),
      },
      {
        words: 'webhook resend',
        args: ['partner_id', 'event_id'],
        options: [],
        run: async (a) => webhooks.resend(await this.resolvePartner(a.at(0)), a.at(1)),
      },
      {
        words: 'webhook dismiss',
        args: ['partner_id', 'event_id'],
        options: [],
        run: async (a) => webhooks.dismiss(await this.resolvePartner(a.at(0)), a.at(1)),
      },
      { words: 'reports rebuild', args: [], options: ['partner', 'from', 'to'], run: (_, o) => days.rebuildReports(o) },
      {
        words: 'reports download',
        args: ['folder'],
        options: ['partner'],
        run: async (a, o) => {
          const { copied, removed } = await downloadReports(this.storage.reports, a.at(0), await resolved(o.partner));
          const stale = removed > 0 ? `; ${removed} file(s) the reports no longer have removed` : '';
          io.out(`${copied} report file(s) copied into ${printable(a.at(0))}${stale}`);
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
    // Before anything is read or written: a day that does not exist would match nothing.
    checkDateOptions(options);
    // Which storage the command acts on, so an operator sees a shell without the Azure settings.
    if (this.storageEndpoint) {
      this.io.err(`storage: ${printable(this.storageEndpoint.url)}${this.storageEndpoint.emulator ? ' (local storage emulator)' : ''}`);
    }
    await command.run(new Positionals(rest), options);
  }

  /** The stored id of the partner an operator typed, whatever its case; refused when there is none. */
  private async resolvePartner(typed: string): Promise<string> {
    if (await this.partners.get(typed)) return typed;
    const matches = (await this.partners.list()).filter((p) => p.partnerId.toLowerCase() === typed.toLowerCase());
    const [only] = matches;
    if (only !== undefined && matches.length === 1) return only.partnerId;
    throw new Refusal(`partner ${printable(typed)} does not exist`);
  }
}

import { randomBytes } from 'node:crypto';
import type { PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import { hashApiKey } from '../services/hashApiKey.js';
import { classifyReportError } from '../services/reports/classifyReportError.js';
import { createStoreDayReportService } from '../services/reports/createStoreDayReportService.js';
import { ApiKeyRepository } from '../storage/ApiKeyRepository.js';
import { PartnerRepository } from '../storage/PartnerRepository.js';
import { PaymentDirectionRepository } from '../storage/PaymentDirectionRepository.js';
import { ReconciliationRepository, type ReconciliationStatus } from '../storage/ReconciliationRepository.js';
import type { StorageClients } from '../storage/StorageClients.js';
import { StoreRegistrationRepository } from '../storage/StoreRegistrationRepository.js';
import { hqUsage } from './hqUsage.js';
import { parseArgs, UsageError } from './parseArgs.js';

export interface HqOutput {
  out(line: string): void;
  err(line: string): void;
}

/** A command that was understood but refused (exit code 1). */
class Refusal extends Error {}

const partnerIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const storeIdMaxLength = 128;

/** The HQ operator's commands: partners, keys, store registrations, payment directions, results. */
export class HqTool {
  private readonly partners: PartnerRepository;
  private readonly keys: ApiKeyRepository;
  private readonly registrations: StoreRegistrationRepository;
  private readonly directions: PaymentDirectionRepository;
  private readonly results: ReconciliationRepository;

  constructor(
    private readonly storage: StorageClients,
    private readonly io: HqOutput,
    private readonly clock: () => Date = () => new Date(),
  ) {
    const t = storage.tables;
    this.partners = new PartnerRepository(t.partners);
    this.keys = new ApiKeyRepository(t.apiKeys);
    this.registrations = new StoreRegistrationRepository(t.storeRegistrations);
    this.directions = new PaymentDirectionRepository(t.paymentDirections);
    this.results = new ReconciliationRepository(t.reconciliations);
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
      if (error instanceof Refusal) {
        this.io.err(`error: ${error.message}`);
        return 1;
      }
      this.io.err(`error: storage request failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      return 1;
    }
  }

  private async dispatch(words: string[], options: Record<string, string>): Promise<void> {
    const [group, action, ...rest] = words;
    const command = `${group ?? ''} ${action ?? ''}`;
    switch (command) {
      case 'partner create':
        return this.createPartner(one(rest, 'partner_id'), options.name);
      case 'partner deactivate':
        return this.setPartnerStatus(one(rest, 'partner_id'), 'INACTIVE');
      case 'partner activate':
        return this.setPartnerStatus(one(rest, 'partner_id'), 'ACTIVE');
      case 'partner set-rate-limit':
        return this.setRateLimit(rest);
      case 'partner list':
        return this.listPartners();
      case 'key issue':
        return this.issueKey(one(rest, 'partner_id'), options.expires);
      case 'key revoke':
        return this.revokeKey(rest);
      case 'key list':
        return this.listKeys(one(rest, 'partner_id'));
      case 'store register':
        return this.registerStores(rest);
      case 'store list':
        return this.listStores(one(rest, 'partner_id'));
      case 'payment-type set-direction':
        return this.setDirection(rest);
      case 'reconciliation list':
        return this.listReconciliations(options);
      case 'reports rebuild':
        if (rest.length > 0) throw new UsageError('reports rebuild takes only --partner, --from and --to');
        return this.rebuildReports(options);
      default:
        throw new UsageError(`unknown command "${words.join(' ')}"`);
    }
  }

  private async createPartner(partnerId: string, name: string | undefined): Promise<void> {
    if (!partnerIdPattern.test(partnerId)) {
      throw new UsageError('partner_id must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
    if (!(await this.partners.create(partnerId, name ?? partnerId, this.clock()))) throw new Refusal(`partner ${partnerId} already exists`);
    this.io.out(`partner ${partnerId} created (ACTIVE)`);
  }

  private async setPartnerStatus(partnerId: string, status: 'ACTIVE' | 'INACTIVE'): Promise<void> {
    if (!(await this.partners.update(partnerId, { status }))) throw new Refusal(`partner ${partnerId} does not exist`);
    this.io.out(`partner ${partnerId} is ${status}`);
  }

  private async setRateLimit(rest: string[]): Promise<void> {
    const [partnerId, limitText] = exactly(rest, ['partner_id', 'calls per minute']);
    const limit = Number(limitText);
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new UsageError('the rate limit must be a whole number of calls per minute, at least 1');
    if (!(await this.partners.update(partnerId, { rateLimitPerMinute: limit }))) throw new Refusal(`partner ${partnerId} does not exist`);
    this.io.out(`partner ${partnerId} may call /trade-records ${limit} times per minute`);
  }

  private async listPartners(): Promise<void> {
    for (const p of await this.partners.list()) {
      this.io.out(`${p.partnerId}\t${p.status}\t${p.rateLimitPerMinute ?? 'default'}\t${p.name}`);
    }
  }

  private async issueKey(partnerId: string, expires: string | undefined): Promise<void> {
    await this.requirePartner(partnerId);
    let expiresAt: string | undefined;
    if (expires !== undefined) {
      const time = Date.parse(expires);
      if (Number.isNaN(time)) throw new UsageError('--expires must be an ISO 8601 date or date-time');
      if (time <= this.clock().getTime()) throw new UsageError('--expires must be in the future');
      expiresAt = new Date(time).toISOString();
    }
    const key = randomBytes(32).toString('base64url');
    const keyId = `key-${randomBytes(4).toString('hex')}`;
    await this.keys.create({ keyHash: hashApiKey(key), keyId, partnerId, createdAt: this.clock().toISOString(), expiresAt });
    this.io.out(`key ${keyId} issued for partner ${partnerId}${expiresAt ? `, expires ${expiresAt}` : ''}.`);
    this.io.out(
      'It is shown once and stored only as a hash. Hand it over through a secure channel; in Azure also set it as a host key named after the partner.',
    );
    this.io.out(key);
  }

  private async revokeKey(rest: string[]): Promise<void> {
    const [partnerId, keyId] = exactly(rest, ['partner_id', 'key_id']);
    if (!(await this.keys.revoke(partnerId, keyId, this.clock()))) throw new Refusal(`partner ${partnerId} has no key ${keyId}`);
    this.io.out(`key ${keyId} of partner ${partnerId} revoked`);
  }

  private async listKeys(partnerId: string): Promise<void> {
    await this.requirePartner(partnerId);
    this.io.out('key_id\tstatus\tcreated\texpires');
    for (const k of await this.keys.listForPartner(partnerId)) {
      const expired = k.expiresAt && Date.parse(k.expiresAt) <= this.clock().getTime();
      this.io.out(`${k.keyId}\t${expired && k.status === 'ACTIVE' ? 'EXPIRED' : k.status}\t${k.createdAt}\t${k.expiresAt ?? 'never'}`);
    }
  }

  private async registerStores(rest: string[]): Promise<void> {
    const [partnerId, ...storeIds] = rest;
    if (!partnerId || storeIds.length === 0) throw new UsageError('store register needs <partner_id> and at least one <store_id>');
    const bad = storeIds.filter((s) => s.length === 0 || s.length > storeIdMaxLength);
    if (bad.length > 0) throw new UsageError(`store_id must be 1-${storeIdMaxLength} characters`);
    await this.requirePartner(partnerId);
    const created = await this.registrations.register(partnerId, storeIds, this.clock());
    const already = storeIds.length - created.length;
    this.io.out(`${created.length} store(s) registered for partner ${partnerId}${already > 0 ? `; ${already} already were` : ''}`);
  }

  private async listStores(partnerId: string): Promise<void> {
    await this.requirePartner(partnerId);
    for (const storeId of await this.registrations.listForPartner(partnerId)) this.io.out(storeId);
  }

  private async setDirection(rest: string[]): Promise<void> {
    const [partnerId, paymentType, directionText] = exactly(rest, ['partner_id', 'payment_type', '1|-1|0']);
    if (!['1', '-1', '0'].includes(directionText)) throw new UsageError('the direction must be 1, -1 or 0');
    if (paymentType.length === 0 || paymentType.length > 50) throw new UsageError('payment_type must be 1-50 characters');
    await this.requirePartner(partnerId);
    await this.directions.set(partnerId, paymentType, Number(directionText) as PaymentDirection, this.clock());
    this.io.out(`payment_type ${paymentType} of partner ${partnerId} counts with direction ${directionText}`);
  }

  /**
   * Rewrites the report files of every reconciled store-day in range from the raw batches (history
   * replay, or after a fix), one store-day at a time, with a progress line per store-day. A
   * store-day that fails is reported and skipped; storage failures are tried three times.
   */
  private async rebuildReports(options: Record<string, string>): Promise<void> {
    const { partner, from, to } = options;
    for (const [name, value] of [
      ['--from', from],
      ['--to', to],
    ] as const) {
      if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new UsageError(`${name} must be YYYY-MM-DD`);
    }
    if (from !== undefined && to !== undefined && from > to) throw new UsageError('--from must not be after --to');
    if (partner !== undefined) await this.requirePartner(partner);
    const days: { partnerId: string; storeId: string; businessDate: string }[] = [];
    for await (const r of this.results.list({ partnerId: partner })) {
      if (r.status === 'RECEIVED' || (from !== undefined && r.businessDate < from) || (to !== undefined && r.businessDate > to)) continue;
      days.push({ partnerId: r.partnerId, storeId: r.storeId, businessDate: r.businessDate });
    }
    days.sort((a, b) => compare(a.partnerId, b.partnerId) || compare(a.businessDate, b.businessDate) || compare(a.storeId, b.storeId));
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
      this.io.err(`[${i + 1}/${days.length}] ${day.partnerId} ${day.storeId} ${day.businessDate}: ${outcome}`);
    }
    this.io.out(`${written} of ${days.length} reconciled store-day(s) rewritten${failed > 0 ? `, ${failed} failed` : ''}`);
    if (failed > 0) throw new Refusal(`${failed} store-day(s) could not be rewritten (see above)`);
  }

  private async listReconciliations(options: Record<string, string>): Promise<void> {
    const status = options.status;
    if (status && !['RECEIVED', 'MATCHED', 'MISMATCHED'].includes(status)) {
      throw new UsageError('--status must be RECEIVED, MATCHED or MISMATCHED');
    }
    if (options.date && !/^\d{4}-\d{2}-\d{2}$/.test(options.date)) throw new UsageError('--date must be YYYY-MM-DD');
    this.io.out('partner\tstore\tbusiness_date\tstatus\tchecked_at\tdifferences');
    for await (const r of this.results.list({
      partnerId: options.partner,
      status: status as ReconciliationStatus | undefined,
      businessDate: options.date,
    })) {
      this.io.out(`${r.partnerId}\t${r.storeId}\t${r.businessDate}\t${r.status}\t${r.checkedAt ?? '-'}\t${r.differences.join(',') || '-'}`);
    }
  }

  private async requirePartner(partnerId: string): Promise<void> {
    if (!(await this.partners.get(partnerId))) throw new Refusal(`partner ${partnerId} does not exist`);
  }
}

function one(rest: string[], name: string): string {
  return exactly(rest, [name])[0];
}

/** The words of a command, exactly as many as `names` (which also name them in the error). */
function exactly<const N extends readonly string[]>(rest: string[], names: N): { -readonly [K in keyof N]: string } {
  if (rest.length !== names.length) throw new UsageError(`expected ${names.map((n) => `<${n}>`).join(' ')}`);
  return rest as unknown as { -readonly [K in keyof N]: string };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

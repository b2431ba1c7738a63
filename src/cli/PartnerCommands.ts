import type { PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import { ApiError } from '../errors/ApiError.js';
import type { HqRequestValidator } from '../hq/http/HqRequestValidator.js';
import type { BodyName } from '../hq/http/hqSchemas.js';
import type { PartnerAdmin } from '../hq/services/PartnerAdmin.js';
import type { PartnerRepository } from '../storage/PartnerRepository.js';
import type { StoreRegistration, StoreRegistrationRepository, StoreRegistrationStatus } from '../storage/StoreRegistrationRepository.js';
import type { HqContext } from './HqContext.js';
import { UsageError } from './parseArgs.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';

const partnerIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The HQ tool's `partner`, `store` and `payment-type` commands. They apply the same rules as the
 * HQ API's admin actions (through {@link PartnerAdmin}) and check typed ids with the API's schemas.
 */
export class PartnerCommands {
  constructor(
    private readonly context: HqContext,
    private readonly partners: PartnerRepository,
    private readonly registrations: StoreRegistrationRepository,
    private readonly admin: PartnerAdmin,
    private readonly validator: HqRequestValidator,
  ) {}

  /**
   * Partner ids are case-insensitive for operators: a new id that differs from an existing one only
   * in case is refused (no `Acme` beside `acme`), and every other command finds the partner whatever
   * the case it is typed in.
   */
  async create(partnerId: string, name: string | undefined): Promise<void> {
    if (!partnerIdPattern.test(partnerId)) {
      throw new UsageError('partner_id must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
    const lookalike = (await this.partners.list()).find((p) => p.partnerId.toLowerCase() === partnerId.toLowerCase());
    if (lookalike) throw new Refusal(`partner ${printable(lookalike.partnerId)} already exists (partner ids are case-insensitive)`);
    if (!(await this.partners.create(partnerId, name ?? partnerId, this.context.clock()))) {
      throw new Refusal(`partner ${partnerId} already exists`);
    }
    this.context.io.out(`partner ${partnerId} created (ACTIVE)`);
  }

  async setStatus(typed: string, status: 'ACTIVE' | 'INACTIVE'): Promise<void> {
    const partnerId = await this.context.resolvePartner(typed);
    await this.admin.setStatus(partnerId, status);
    this.context.io.out(`partner ${printable(partnerId)} is ${status}`);
  }

  async setRateLimit(typed: string, limitText: string): Promise<void> {
    const limit = limitText === 'default' ? null : Number(limitText);
    if (limit !== null && (!Number.isSafeInteger(limit) || limit < 1))
      throw new UsageError('the rate limit must be a whole number of calls per minute, at least 1, or default');
    const partnerId = await this.context.resolvePartner(typed);
    if (!(await this.partners.update(partnerId, { rateLimitPerMinute: limit })))
      throw new Refusal(`partner ${printable(typed)} does not exist`);
    this.context.io.out(
      limit === null
        ? `partner ${printable(partnerId)} follows the default rate limit (RATE_LIMIT_PER_MINUTE) again`
        : `partner ${printable(partnerId)} may call /trade-records ${limit} times per minute`,
    );
  }

  async list(): Promise<void> {
    for (const p of await this.partners.list()) {
      this.context.io.out(`${printable(p.partnerId)}\t${p.status}\t${p.rateLimitPerMinute ?? 'default'}\t${printable(p.name)}`);
    }
  }

  async registerStores(typed: string, storeIds: string[]): Promise<void> {
    // A problem with one id is at /store_ids/<index>; one with the list (how many) at /store_ids.
    this.checked('registerStores', { store_ids: storeIds }, (path) => {
      const index = path.split('/')[2];
      return index === undefined ? 'the store ids' : `store id ${String(Number(index) + 1)}`;
    });
    const partnerId = await this.context.resolvePartner(typed);
    const { registered, alreadyRegistered } = await this.admin.registerStores(partnerId, storeIds);
    const already = alreadyRegistered.length;
    this.context.io.out(
      `${registered.length} store(s) registered for partner ${printable(partnerId)}${already > 0 ? `; ${already} already were` : ''}`,
    );
  }

  async listStores(typed: string): Promise<void> {
    const partnerId = await this.context.resolvePartner(typed);
    this.context.io.out('store_id\tstatus\tregistered\tretired');
    for (const r of await this.registrations.listRegistrations(partnerId)) {
      this.context.io.out(`${printable(r.storeId)}\t${r.status}\t${r.registeredAt ?? '-'}\t${r.retiredAt ?? '-'}`);
    }
  }

  /** Store ids are matched exactly, as partners send them (only the partner id is case-insensitive). */
  async setStoreStatus(typed: string, storeId: string, status: StoreRegistrationStatus): Promise<void> {
    const partnerId = await this.context.resolvePartner(typed);
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
      this.context.io.out(`${store} is RETIRED since ${registration.retiredAt ?? '-'}; its data stays, and store reactivate undoes it`);
      // The service trusts a registration it read for PARTNER_CACHE_SECONDS (Configuration, README).
      this.context.io.out('The service refuses what the partner sends for it within PARTNER_CACHE_SECONDS (30 s in Azure).');
    } else {
      this.context.io.out(`${store} is ACTIVE: the partner may send for it again at once`);
    }
  }

  async setDirection(typed: string, paymentType: string, directionText: string): Promise<void> {
    if (!['1', '-1', '0'].includes(directionText)) throw new UsageError('the direction must be 1, -1 or 0');
    this.checked('paymentDirection', { payment_type: paymentType, direction: Number(directionText) }, (path) => path.slice(1));
    const partnerId = await this.context.resolvePartner(typed);
    await this.admin.setPaymentDirection(partnerId, paymentType, Number(directionText) as PaymentDirection);
    this.context.io.out(`payment_type ${printable(paymentType)} of partner ${printable(partnerId)} counts with direction ${directionText}`);
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
}

import { createHmac, randomUUID } from 'node:crypto';
import { deliveryPolicy, type DeliveryPolicy } from '../../../src/events/DeliveryPolicy.js';
import type { WebhookDeliveryMessage } from '../../../src/events/WebhookDeliveryMessage.js';
import type { HostResolver } from '../../../src/outbound/HostResolver.js';
import { WebhookSender } from '../../../src/outbound/WebhookSender.js';
import { WebhookTargetGuard } from '../../../src/outbound/WebhookTargetGuard.js';
import { EventPublisher, type DeliveryQueue } from '../../../src/services/webhooks/EventPublisher.js';
import { WebhookDelivery } from '../../../src/services/webhooks/WebhookDelivery.js';
import { WebhookRegistrar } from '../../../src/services/webhooks/WebhookRegistrar.js';
import { PartnerRepository } from '../../../src/storage/PartnerRepository.js';
import { tableNames } from '../../../src/storage/storageNames.js';
import { WebhookDeadLetterRepository } from '../../../src/storage/WebhookDeadLetterRepository.js';
import { WebhookEndpointHealthRepository } from '../../../src/storage/WebhookEndpointHealthRepository.js';
import { WebhookEventStore } from '../../../src/storage/WebhookEventStore.js';
import { WebhookRegistrationRepository } from '../../../src/storage/WebhookRegistrationRepository.js';
import { azuriteTable } from '../../support/azuriteClients.js';

/** A clock the test moves by hand. */
class TestClock {
  constructor(public ms = Date.parse('2026-03-01T00:00:00Z')) {}
  readonly now = (): Date => new Date(this.ms);
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/**
 * The delivery queue as the service sees it (send with a visibility delay), kept in the test so
 * the test can follow a day of retries at once: `next()` hands out the message that becomes
 * visible first and moves the clock to that moment. The real queue's encoding and delays are
 * checked separately against the storage emulator.
 */
class ScheduledQueue implements DeliveryQueue {
  readonly sent: { message: WebhookDeliveryMessage; delaySeconds: number; visibleAt: number }[] = [];
  #pending: { message: WebhookDeliveryMessage; visibleAt: number }[] = [];

  constructor(private readonly clock: TestClock) {}

  send(message: WebhookDeliveryMessage, delaySeconds: number): Promise<void> {
    const visibleAt = this.clock.ms + delaySeconds * 1000;
    this.sent.push({ message, delaySeconds, visibleAt });
    this.#pending.push({ message, visibleAt });
    return Promise.resolve();
  }

  get size(): number {
    return this.#pending.length;
  }

  /** The next visible message, the clock moved to its time; undefined when the queue is empty. */
  next(): WebhookDeliveryMessage | undefined {
    this.#pending.sort((a, b) => a.visibleAt - b.visibleAt);
    const item = this.#pending.shift();
    if (!item) return undefined;
    this.clock.ms = Math.max(this.clock.ms, item.visibleAt);
    return item.message;
  }

  /** Every message visible now (the batch a host would take at once). */
  takeVisible(): WebhookDeliveryMessage[] {
    const visible = this.#pending.filter((item) => item.visibleAt <= this.clock.ms);
    this.#pending = this.#pending.filter((item) => item.visibleAt > this.clock.ms);
    return visible.map((item) => item.message);
  }
}

export interface WebhookKit extends WebhookServices {
  readonly clock: TestClock;
  readonly queue: ScheduledQueue;
}

/** The webhook services over storage of the emulator, a delivery queue and a clock the caller gives. */
export interface WebhookServices {
  readonly registrations: WebhookRegistrationRepository;
  /** Partner accounts: a test's partner id has none unless the test creates it. */
  readonly partners: PartnerRepository;
  readonly health: WebhookEndpointHealthRepository;
  readonly events: WebhookEventStore;
  readonly deadLetters: WebhookDeadLetterRepository;
  readonly registrar: WebhookRegistrar;
  readonly publisher: EventPublisher;
  readonly delivery: WebhookDelivery;
}

export interface WebhookServicesOptions {
  policy?: Partial<DeliveryPolicy>;
  allowPrivate?: boolean;
  resolve?: HostResolver;
  lookups?: { readonly atOnce: number; readonly timeoutMs: number };
  random?: () => number;
}

/**
 * Wires the webhook services as the service does, on the emulator's tables, around `queue` and
 * `clock`: loopback receivers allowed and no DNS unless the options say otherwise.
 */
export async function webhookServices(
  queue: DeliveryQueue,
  clock: () => Date,
  options: WebhookServicesOptions = {},
): Promise<WebhookServices> {
  const webhooks = await azuriteTable(tableNames.webhooks);
  const registrations = new WebhookRegistrationRepository(webhooks);
  const partners = new PartnerRepository(await azuriteTable(tableNames.partners));
  const health = new WebhookEndpointHealthRepository(webhooks);
  const events = new WebhookEventStore(await azuriteTable(tableNames.webhookEvents));
  const deadLetters = new WebhookDeadLetterRepository(await azuriteTable(tableNames.webhookDeadLetters));
  const policy = { ...deliveryPolicy, ...options.policy };
  const guard = new WebhookTargetGuard({
    allowPrivate: options.allowPrivate ?? true,
    resolve: options.resolve ?? (() => Promise.reject(new Error('no DNS in tests'))),
    ...(options.lookups === undefined ? {} : { lookups: options.lookups }),
  });
  const sender = new WebhookSender({ guard, timeoutMs: policy.attemptTimeoutMs });
  return {
    registrations,
    partners,
    health,
    events,
    deadLetters,
    registrar: new WebhookRegistrar({ registrations, health, guard, clock }),
    publisher: new EventPublisher({ registrations, partners, events, queue, typePrefix: 'com.example.pos', clock }),
    delivery: new WebhookDelivery({
      registrations,
      partners,
      health,
      events,
      deadLetters,
      queue,
      sender,
      policy,
      clock,
      random: options.random ?? Math.random,
    }),
  };
}

/** The webhook services on the storage emulator, with a test clock, the test queue and loopback receivers allowed. */
export async function startWebhookKit(options: WebhookServicesOptions = {}): Promise<WebhookKit> {
  const clock = new TestClock();
  const queue = new ScheduledQueue(clock);
  return { clock, queue, ...(await webhookServices(queue, clock.now, options)) };
}

/** A partner id of its own for each test, with characters table keys cannot hold. */
export const newPartnerId = (): string => `partner/${randomUUID()}`;

/**
 * Standard Webhooks verification written out again from the specification, independently of the
 * service: some `v1,<sig>` in the header equals base64(HMAC-SHA256(key, "<id>.<ts>.<body>")).
 */
export function independentlyVerified(secretText: string, headers: Readonly<Record<string, string>>, body: Buffer): boolean {
  const key = Buffer.from(secretText.slice('whsec_'.length), 'base64');
  const signed = Buffer.concat([Buffer.from(`${headers['webhook-id'] ?? ''}.${headers['webhook-timestamp'] ?? ''}.`), body]);
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  return (headers['webhook-signature'] ?? '').split(' ').includes(expected);
}

/** The value, or the test fails saying what was missing. */
export function present<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

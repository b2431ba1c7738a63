import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeInProcess, type EndpointCaller } from '../support/invokeInProcess.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, preparePartner } from '../reliability/support/dayScenario.js';
import { seededRandom } from '../reliability/support/random.js';

/**
 * Everything this process does runs on one thread, so the order of two things it does is exact:
 * the method and resource of every HTTP request written to a socket (storage requests included),
 * and the start and end of a push's parse, which holds the thread, in the order they happened.
 */
const events: string[] = [];
const socketWrite = Object.getOwnPropertyDescriptor(net.Socket.prototype, 'write');
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the socket it was called on
const inheritedWrite = net.Socket.prototype.write;

let service: TestService;
let call: EndpointCaller;
let partner: TestPartner;
const random = seededRandom(7301);

beforeAll(async () => {
  service = await startTestService();
  partner = await preparePartner(service, random);
  // In process, as the Functions worker hands a handler its request: the whole body is there at
  // once, so reading it gives the event loop no turn of its own.
  call = invokeInProcess(service.services);
  const ingestion = service.services.ingestion;
  const parse = ingestion.parse.bind(ingestion);
  ingestion.parse = (bytes) => {
    events.push('validation starts');
    const value = parse(bytes);
    events.push('validation yields');
    return value;
  };
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) {
      const head = typeof chunk === 'string' ? chunk.slice(0, 200) : Buffer.from(chunk.subarray(0, 200)).toString('latin1');
      // Method and resource only: keys and their hashes in the rest of the path stay out of messages.
      const request = /^([A-Z]+) \/[^/ ]+\/([^/?( ]+)/.exec(head);
      if (request) events.push(`${request[1]} ${request[2]}`);
    }
    return (inheritedWrite as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  };
});
afterAll(async () => {
  if (socketWrite) Object.defineProperty(net.Socket.prototype, 'write', socketWrite);
  else delete (net.Socket.prototype as { write?: unknown }).write;
  await service.stop();
});

describe('a push and its rate limit', () => {
  it('writes the rate-limit decision to storage before the body is parsed, so the two overlap', async () => {
    events.length = 0;
    const batch = buildDayBatch(random, 'NYC-0001', businessDateOf(7300), 200, 'overlap');
    const answer = await call(partner, 'POST', 'trade-records', batch);
    expect(answer.status).toBe(202);

    const rateLimit = events.findIndex((event) => event.endsWith(' ratelimits'));
    expect(rateLimit, events.join('\n')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('validation starts'), events.join('\n')).toBeGreaterThan(rateLimit);
  });
});

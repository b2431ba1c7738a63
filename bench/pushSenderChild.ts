/**
 * Child process of the push CPU job: builds and sends its pushes, so that the client's CPU is
 * spent outside the process whose CPU is counted ({@link startPushSender}). The first message is
 * the setup (answered `{ status: 0 }` once ready); each later one names a push to send.
 */
import http from 'node:http';
import { pushBody, senderTemplate, type PushSenderSetup } from './PushSender.js';
import type { BatchTemplate } from './BatchTemplate.js';

const agent = new http.Agent({ keepAlive: true });
let setup: PushSenderSetup | undefined;
let template: BatchTemplate | undefined;

function post(url: URL, key: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'x-functions-key': key, 'content-type': 'application/json', 'content-length': body.length },
      },
      (response) => {
        response.resume();
        response.once('end', () => {
          resolve(response.statusCode ?? 0);
        });
        response.once('error', reject);
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

process.on('message', (message: PushSenderSetup | { n: number }) => {
  if (!('n' in message)) {
    setup = message;
    template = senderTemplate(message);
    process.send?.({ status: 0 });
    return;
  }
  if (setup === undefined || template === undefined) {
    process.send?.({ error: 'a push was asked for before the setup' });
    return;
  }
  post(new URL(`${setup.baseUrl}/trade-records`), setup.key, pushBody(template, message.n)).then(
    (status) => process.send?.({ status }),
    (error: unknown) => process.send?.({ error: error instanceof Error ? error.message : String(error) }),
  );
});

process.once('disconnect', () => {
  agent.destroy();
});

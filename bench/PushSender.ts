import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BatchTemplate } from './BatchTemplate.js';
import { benchBusinessDate } from './benchBusinessDate.js';
import { businessDateOfPush } from './businessDateOfPush.js';

/** What the sender needs to build and send push `n`: where to, with which key, and the batch's shape. */
export interface PushSenderSetup {
  readonly baseUrl: string;
  readonly key: string;
  readonly storeId: string;
  readonly records: number;
  readonly seed: number;
}

/** Sends push `n` (each on a store-day of its own) and resolves to the status it was answered. */
export interface PushSender {
  push(n: number): Promise<number>;
  stop(): Promise<void>;
}

/** Push `n`'s body: a batch of its own on a store-day of its own ({@link businessDateOfPush}). */
export function pushBody(template: BatchTemplate, n: number): Buffer {
  return template.render(0x20000 + n, businessDateOfPush(1 + n));
}

/** The batch template every push of the sender is rendered from. */
export function senderTemplate(setup: PushSenderSetup): BatchTemplate {
  return new BatchTemplate({ storeId: setup.storeId, businessDate: benchBusinessDate, recordCount: setup.records, seed: setup.seed });
}

/**
 * A sender in a process of its own (`pushSenderChild.js` of the compiled benchmark), so that the
 * CPU of building and sending 2.4 MB bodies is not counted in the process that serves them. Run
 * from TypeScript sources (the smoke tests) there is no compiled script, and the pushes are sent
 * from this process through `sendHere`. `script` is the child's compiled script (a test bundles its own).
 */
export async function startPushSender(
  setup: PushSenderSetup,
  sendHere: (body: Buffer) => Promise<number>,
  script: string = path.join(__dirname, 'pushSenderChild.js'),
): Promise<PushSender> {
  if (!existsSync(script)) {
    const template = senderTemplate(setup);
    return { push: (n) => sendHere(pushBody(template, n)), stop: () => Promise.resolve() };
  }
  const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  // One request at a time: each answer settles the request that is waiting for it.
  let waiting: { resolve: (status: number) => void; reject: (error: Error) => void } | undefined;
  child.on('message', (reply: { status: number } | { error: string }) => {
    const request = waiting;
    waiting = undefined;
    if ('status' in reply) request?.resolve(reply.status);
    else request?.reject(new Error(`push sender: ${reply.error}`));
  });
  void exited.then(() => waiting?.reject(new Error('push sender exited while a push was waiting')));
  const ask = (message: PushSenderSetup | { n: number }) =>
    new Promise<number>((resolve, reject) => {
      waiting = { resolve, reject };
      child.send(message);
    });
  await ask(setup);
  return {
    push: (n) => ask({ n }),
    async stop() {
      child.disconnect();
      await exited;
    },
  };
}

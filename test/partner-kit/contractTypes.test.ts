import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import { verifyWebhook } from '../../src/events/verifyWebhook.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { signWebhook } from '../../src/events/signWebhook.js';
import * as kit from '../../packages/partner-kit/src/index.js';
import type { DailyCloseBody, TradeRecordsBody } from '../../packages/partner-kit/src/index.js';
import { contractTypesFile, renderContractTypes } from '../../packages/partner-kit/src/generateContractTypes.js';
import { buildDailyClose } from '../fixtures/masterDataFixtures.js';
import { buildTradeRecordBatch } from '../fixtures/tradeRecordFixtures.js';

describe('the partner kit shares the contract code', () => {
  it('has types generated from the current schemas (npm run generate:types)', async () => {
    const root = findProjectRoot();
    expect(readFileSync(path.join(root, contractTypesFile), 'utf8')).toBe(await renderContractTypes(root));
  });

  it('types the bodies the service itself types (type-checked by npm test)', () => {
    const body: TradeRecordsBody = buildTradeRecordBatch({ recordCount: 2 });
    const close: DailyCloseBody = buildDailyClose();
    expect(body.trade_records).toHaveLength(2);
    expect(close.batch_count).toBe(1);
  });

  it('verifies webhooks with the service code itself, not a copy', () => {
    expect(kit.verifyWebhook).toBe(verifyWebhook);
    const secret = WebhookSecret.generate();
    const body = JSON.stringify({ specversion: '1.0', id: 'e-1', type: 'com.example.pos.test' });
    const now = new Date('2026-03-02T10:00:00Z');
    const timestamp = now.getTime() / 1000;
    const headers = signWebhook([secret], { id: 'msg_1', timestamp, body });
    expect(kit.verifyWebhook({ headers, body, secrets: [secret], now })).toEqual({ ok: true, id: 'msg_1', timestamp });
    expect(kit.verifyWebhook({ headers, body: body + ' ', secrets: [secret], now }).ok).toBe(false);
  });
});

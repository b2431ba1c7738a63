import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import type { ProductBatch, StoreBatch, TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { standardTransactionTypes } from '../../src/domain/reference/standardTransactionTypes.js';
import { checkAmountIdentity } from '../../src/domain/validation/checkAmountIdentity.js';
import { checkDailyClose } from '../../src/domain/validation/checkDailyClose.js';
import { checkMappingBatch } from '../../src/domain/validation/checkMappingBatch.js';
import { checkProductBatch } from '../../src/domain/validation/checkProductBatch.js';
import { checkStoreBatch } from '../../src/domain/validation/checkStoreBatch.js';
import { checkTradeRecordBatch } from '../../src/domain/validation/checkTradeRecordBatch.js';
import { errorCatalogue } from '../../src/errors/errorCatalogue.js';
import { functionTable } from '../../src/functions/functionTable.js';
import { buildOpenApiDocument } from '../../src/openapi/buildOpenApiDocument.js';
import { partnerApi } from '../../src/openapi/partnerApi.js';
import { partnerExamples } from '../../src/openapi/partnerExamples.js';
import { openApiFile, renderPartnerOpenApiFile } from '../../src/openapi/writeDocs.js';
import { createBodyValidator } from '../../src/bodyParsing/createBodyValidator.js';
import { readSchemaFolder } from '../../src/bodyParsing/readSchemaFolder.js';
import { pointerToken, specValidator } from './specAjv.js';

const root = findProjectRoot();
const document = JSON.parse(renderPartnerOpenApiFile(root)) as OpenApiDocument;
const schemaAt = specValidator(document);

interface MediaType {
  schema: unknown;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; example?: unknown }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType>; headers?: Record<string, { required?: boolean }> }>;
}
interface OpenApiDocument {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const operations = Object.entries(document.paths).flatMap(([route, item]) =>
  Object.entries(item).map(([method, operation]) => ({ route, method, operation, pointer: `/paths/${pointerToken(route)}/${method}` })),
);

describe('the partner API document', () => {
  it('is the one checked in as docs/openapi.json (npm run build writes it)', () => {
    expect(readFileSync(path.join(root, openApiFile), 'utf8')).toBe(renderPartnerOpenApiFile(root));
  });

  it('describes every partner HTTP function of the function table, with its method and auth level', () => {
    const partnerFunctions = functionTable.filter(
      (fn) => fn.trigger === 'http' && !partnerApi.undocumented.includes(fn.name) && fn.route.startsWith(`${partnerApi.basePath}/`),
    );
    expect(operations.map((o) => o.operation.operationId).sort()).toEqual(partnerFunctions.map((fn) => fn.name).sort());
    for (const fn of partnerFunctions) {
      if (fn.trigger !== 'http') continue;
      const found = operations.find((o) => o.operation.operationId === fn.name);
      expect(found?.method).toBe(fn.methods[0]?.toLowerCase());
      expect(found?.operation.security).toEqual(fn.authLevel === 'anonymous' ? [] : undefined);
      expect(fn.route.endsWith(found?.route.replace(/^\//, '') ?? '?')).toBe(true);
    }
  });

  it('refuses a function of the API that has no description', () => {
    const extra = { ...functionTable.find((fn) => fn.name === 'getMapping')!, name: 'getSomethingNew' };
    expect(() =>
      buildOpenApiDocument(partnerApi, {
        functions: [...functionTable, extra],
        routePrefix: '',
        schemaFolder: path.join(root, 'schemas'),
        maxRequestBodyBytes: 1,
        storeDayLimits: { maxTransactions: 1, maxBatches: 1 },
      }),
    ).toThrow(/getSomethingNew/);
  });

  it('has the same component for every schema file ajv compiles', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['TradeRecordsBody', 'DailyCloseBody', 'StoresBody', 'ProductsBody', 'MappingsBody', 'TradeRecord', 'Uuid']),
    );
  });

  it('gives every operation an example request (when it takes a body) and an example per success response', () => {
    for (const { operation } of operations) {
      const body = operation.requestBody?.content['application/json'];
      if (body) expect(body.example, operation.operationId).toBeDefined();
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        if (Number(status) >= 400 && status !== '503') expect(media?.examples, `${operation.operationId} ${status}`).toBeDefined();
        if (media) expect(media.example ?? media.examples, `${operation.operationId} ${status}`).toBeDefined();
      }
    }
  });

  it('every example validates against the schema it illustrates', () => {
    let checked = 0;
    for (const { operation, pointer } of operations) {
      const check = (schemaPointer: string, value: unknown, what: string): void => {
        const validate = schemaAt(schemaPointer);
        expect(validate(value), `${operation.operationId} ${what}: ${JSON.stringify(validate.errors)}`).toBe(true);
        checked++;
      };
      const body = operation.requestBody?.content['application/json'];
      if (body?.example !== undefined) check(`${pointer}/requestBody/content/application~1json/schema`, body.example, 'request');
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        const schemaPointer = `${pointer}/responses/${status}/content/application~1json/schema`;
        if (media.example !== undefined) check(schemaPointer, media.example, status);
        for (const [name, example] of Object.entries(media.examples ?? {})) check(schemaPointer, example.value, `${status} ${name}`);
      }
      operation.parameters?.forEach((parameter, index) => {
        if (parameter.example !== undefined) check(`${pointer}/parameters/${index}/schema`, parameter.example, parameter.name);
      });
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('request examples are accepted by the service itself: schema and semantic rules, no warnings', () => {
    const validator = createBodyValidator(readSchemaFolder());
    const examples = partnerExamples;
    expect(validator.validate('tradeRecords', examples.pushTradeRecords.request)).toEqual([]);
    expect(validator.validate('dailyClose', examples.pushDailyClose.request)).toEqual([]);
    expect(validator.validate('stores', examples.putStores.request)).toEqual([]);
    expect(validator.validate('products', examples.putProducts.request)).toEqual([]);
    expect(validator.validate('mappings', examples.putMapping.request)).toEqual([]);
    const trade = examples.pushTradeRecords.request as unknown as TradeRecordBatch;
    expect(checkTradeRecordBatch(trade, 'USD')).toEqual([]);
    trade.trade_records.forEach((record, index) => {
      expect(checkAmountIdentity(record, index)).toBeUndefined();
    });
    expect(checkDailyClose(examples.pushDailyClose.request, 'USD')).toEqual([]);
    expect(checkStoreBatch(examples.putStores.request as unknown as StoreBatch, new Date('2026-03-02T00:00:00Z'))).toEqual([]);
    expect(checkProductBatch(examples.putProducts.request as unknown as ProductBatch)).toEqual([]);
    const codes = new Set(standardTransactionTypes.data.map((t) => t.code));
    expect(checkMappingBatch(examples.putMapping.request, codes)).toEqual({
      problems: [],
      unknownStandardCodes: [],
    });
  });

  it("lists in the description's error table exactly the codes the partner operations answer, none of HQ's", () => {
    const tableCodes = [...document.info.description.matchAll(/^\| \d{3} \| `(\w+)` \|/gm)].map(([, code]) => code);
    const answered = new Set(
      operations.flatMap(({ operation }) =>
        Object.values(operation.responses).flatMap((response) => Object.keys(response.content?.['application/json']?.examples ?? {})),
      ),
    );
    expect(new Set(tableCodes).size).toBe(tableCodes.length);
    expect([...tableCodes].sort()).toEqual([...answered].sort());
    // Codes only the HQ API at /hq/v1 answers (its operator keys, roles, query strings and lookups).
    const hqOnly = [
      'INVALID_QUERY',
      'OPERATOR_KEY_REQUIRED',
      'ADMIN_ROLE_REQUIRED',
      'PARTNER_NOT_FOUND',
      'STORE_NOT_FOUND',
      'KEY_NOT_FOUND',
    ];
    for (const code of hqOnly) expect(tableCodes, code).not.toContain(code);
  });

  it('request examples work together: the trade records name only stores, products, groups and codes the others upload', () => {
    const trade = partnerExamples.pushTradeRecords.request as unknown as TradeRecordBatch;
    const close = partnerExamples.pushDailyClose.request;
    const stores = partnerExamples.putStores.request as unknown as StoreBatch;
    const products = partnerExamples.putProducts.request as unknown as ProductBatch;
    const storeIds = new Set(stores.stores.map((store) => store.store_id));
    const productIds = new Set(products.products.map((product) => product.product_id));
    const groups = new Map((products.modifier_groups ?? []).map((group) => [group.group_id, group.options.map((o) => o.option_id)]));
    const sourceCodes = new Set(partnerExamples.putMapping.request.mappings.map((mapping) => mapping.source_code));

    for (const storeId of [trade.store_id, close.store_id, ...trade.trade_records.map((record) => record.store_id)]) {
      expect(storeIds, storeId).toContain(storeId);
    }
    const items = trade.trade_records.flatMap((record) => record.items);
    for (const item of items) expect(productIds, item.product_id).toContain(item.product_id);
    for (const modifier of items.flatMap((item) => item.modifiers)) {
      expect(groups.get(modifier.group_id), modifier.group_id).toContain(modifier.option_id);
    }
    for (const record of trade.trade_records) expect(sourceCodes).toContain(record.source_transaction_type);
    // Contract §2.4: the products and groups a product's components and groups name are sent too.
    for (const product of products.products) {
      for (const component of product.combo_components ?? []) {
        expect(productIds, component.product_id).toContain(component.product_id);
        if (component.substitute_group_id !== undefined) expect([...groups.keys()]).toContain(component.substitute_group_id);
      }
      for (const groupId of product.modifier_group_ids ?? []) expect([...groups.keys()]).toContain(groupId);
    }
  });

  it('answers every error with the catalogue status and narrows the code to that status', () => {
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const examples = response.content?.['application/json']?.examples ?? {};
        for (const name of Object.keys(examples)) {
          expect(String(errorCatalogue[name as keyof typeof errorCatalogue].status)).toBe(status);
        }
      }
    }
    const push = operations.find((o) => o.operation.operationId === 'pushTradeRecords')!;
    const validate = schemaAt(`${push.pointer}/responses/400/content/application~1json/schema`);
    expect(validate({ error: { code: 'INVALID_PAYLOAD', message: 'x' } })).toBe(true);
    expect(validate({ error: { code: 'UNKNOWN_STANDARD_CODE', message: 'x' } })).toBe(false);
  });

  it('states Retry-After on 429 (required) and 503, and the body and batch limits', () => {
    const push = operations.find((o) => o.operation.operationId === 'pushTradeRecords')!.operation;
    expect(push.responses['429']?.headers?.['Retry-After']?.required).toBe(true);
    expect(push.responses['503']?.headers?.['Retry-After']).toBeDefined();
    const text = JSON.stringify(push.requestBody);
    expect(text).toContain('5242880 bytes');
    expect(text).toContain('BATCH_TOO_LARGE');
  });
});

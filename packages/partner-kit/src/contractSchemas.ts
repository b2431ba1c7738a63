/**
 * The service's JSON Schema files, imported rather than read from disk so that the kit's bundle
 * carries them: an installed kit has no `schemas` folder beside it. A test checks that this list
 * holds every file of `schemas/`.
 */
import type { SchemaDocument } from '../../../src/bodyParsing/createBodyValidator.js';
import common from '../../../schemas/common.schema.json';
import dailyClose from '../../../schemas/daily-close.schema.json';
import events from '../../../schemas/events.schema.json';
import mappings from '../../../schemas/mappings.schema.json';
import products from '../../../schemas/products.schema.json';
import responses from '../../../schemas/responses.schema.json';
import stores from '../../../schemas/stores.schema.json';
import tradeRecords from '../../../schemas/trade-records.schema.json';
import webhook from '../../../schemas/webhook.schema.json';

export const contractSchemas: readonly SchemaDocument[] = [
  common,
  dailyClose,
  events,
  mappings,
  products,
  responses,
  stores,
  tradeRecords,
  webhook,
];

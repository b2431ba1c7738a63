import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../config/findProjectRoot.js';
import type { SchemaDocument } from './createBodyValidator.js';

/**
 * Every `*.schema.json` of the project's `schemas` folder, parsed, in file name order: what the
 * service validates with. The partner kit bundles the same files instead (contractSchemas.ts),
 * because an installed kit has no project folder to read them from.
 */
export function readSchemaFolder(schemaFolder: string = path.join(findProjectRoot(), 'schemas')): SchemaDocument[] {
  return readdirSync(schemaFolder)
    .filter((name) => name.endsWith('.schema.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(schemaFolder, file), 'utf8')) as SchemaDocument);
}

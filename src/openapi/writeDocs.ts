/**
 * Part of `npm run build`: writes the partner API's OpenAPI document to docs/openapi.json and the
 * HQ API's to docs/hq-openapi.json (both checked in, so a change to an API shows in review) and copies the API reference viewer from its
 * npm package into dist/, next to the compiled app that serves it.
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../config/findProjectRoot.js';
import { settingNames } from '../config/settingNames.js';
import { builtViewerPath, packageViewerPath } from '../docs/docsViewer.js';
import { functionTable } from '../functions/functionTable.js';
import { hqFunctions } from '../hq/http/hqFunctions.js';
import { hqOpenApiDocument } from './hqApi.js';
import { partnerOpenApiDocument } from './partnerApi.js';

/** The document as docs/openapi.json holds it, for the limits of local.settings.sample.json. */
export function renderPartnerOpenApiFile(root: string = findProjectRoot()): string {
  const sample = JSON.parse(readFileSync(path.join(root, 'local.settings.sample.json'), 'utf8')) as { Values: Record<string, string> };
  const integer = (name: string): number => {
    const value = Number(sample.Values[name]);
    if (!Number.isSafeInteger(value)) throw new Error(`local.settings.sample.json lacks ${name}.`);
    return value;
  };
  const limits = {
    maxRequestBodyBytes: integer(settingNames.maxRequestBodyBytes),
    maxTransactionsPerStoreDay: integer(settingNames.maxTransactionsPerStoreDay),
    maxBatchesPerStoreDay: integer(settingNames.maxBatchesPerStoreDay),
  };
  return JSON.stringify(partnerOpenApiDocument(functionTable, limits), null, 2) + '\n';
}

/** The HQ API's document as docs/hq-openapi.json holds it (it depends on no setting). */
export function renderHqOpenApiFile(): string {
  return JSON.stringify(hqOpenApiDocument(hqFunctions), null, 2) + '\n';
}

/** Relative path of the generated partner document. */
export const openApiFile = path.join('docs', 'openapi.json');
/** Relative path of the generated HQ document. */
export const hqOpenApiFile = path.join('docs', 'hq-openapi.json');

/**
 * Replaces a file in one step: `npm test` lints the documents while a test runs the build, and a
 * reader must see the old document or the new one, never half of one.
 */
function replaceFile(file: string, content: string): void {
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, content);
  renameSync(next, file);
}

if (require.main === module) {
  const root = findProjectRoot();
  replaceFile(path.join(root, openApiFile), renderPartnerOpenApiFile(root));
  replaceFile(path.join(root, hqOpenApiFile), renderHqOpenApiFile());
  mkdirSync(path.dirname(path.join(root, builtViewerPath)), { recursive: true });
  copyFileSync(path.join(root, packageViewerPath), path.join(root, builtViewerPath));
}

/**
 * Writes contractTypes.ts: TypeScript types of every request and response body, generated from
 * the JSON Schemas the service validates with (`npm run generate:types`; a test checks the file
 * is current). Every schema is bundled under one `$defs` first, so that references resolve
 * without the generator fetching anything.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';
import * as prettier from 'prettier';
import { findProjectRoot } from '../../../src/config/findProjectRoot.js';
import { schemaComponents } from '../../../src/openapi/schemaComponents.js';

export const contractTypesFile = path.join('packages', 'partner-kit', 'src', 'contractTypes.ts');

export async function renderContractTypes(root: string = findProjectRoot()): Promise<string> {
  const definitions = schemaComponents(path.join(root, 'schemas'), '#/$defs/');
  // A title names the generated type; the files' own titles are sentences. `Date` would hide the
  // global Date of whoever imports the types.
  for (const [name, schema] of Object.entries(definitions)) schema.title = name === 'Date' ? 'CalendarDate' : name;
  const bundle = { $defs: definitions };
  const banner = `/* Generated from schemas/ by generateContractTypes.ts (npm run generate:types). Do not edit. */`;
  const code = await compile(bundle, 'PosContract', {
    bannerComment: banner,
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
    format: false,
    declareExternallyReferenced: true,
    // Batch limits are checked by pos-validate and the service; as tuple types they would be unusable.
    ignoreMinAndMaxItems: true,
  });
  // The bundle itself has no shape of its own.
  const types = code.replace(/export interface PosContract \{[^}]*\}\n?/, '');
  const file = path.join(root, contractTypesFile);
  return prettier.format(types, { ...(await prettier.resolveConfig(file)), filepath: file });
}

if (require.main === module) {
  const root = findProjectRoot();
  void renderContractTypes(root).then((code) => {
    writeFileSync(path.join(root, contractTypesFile), code);
  });
}

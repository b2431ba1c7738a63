import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { componentName, type SchemaRef } from './SchemaRef.js';

type JsonObject = Record<string, unknown>;

/**
 * Turns the JSON Schema files that ajv compiles into OpenAPI 3.1 components, unchanged but for
 * their references: every file's top-level schema (when it has one) and every `$defs` entry
 * becomes a component, and `other.schema.json#/$defs/x` / `#/$defs/x` become refs to the
 * component (below `refPrefix`: OpenAPI's components by default, or a bundle's own `$defs`).
 * OpenAPI 3.1 speaks JSON Schema 2020-12, so nothing else needs translating.
 */
export function schemaComponents(schemaFolder: string, refPrefix = '#/components/schemas/'): Record<string, JsonObject> {
  const components: Record<string, JsonObject> = {};
  const add = (ref: SchemaRef, schema: JsonObject): void => {
    const name = componentName(ref);
    if (name in components) throw new Error(`Two schemas would both be the component ${name}; rename one of them.`);
    components[name] = rewriteRefs(schema, ref.file, refPrefix) as JsonObject;
  };
  const files = readdirSync(schemaFolder)
    .filter((name) => name.endsWith('.schema.json'))
    .sort();
  for (const file of files) {
    const schema = JSON.parse(readFileSync(path.join(schemaFolder, file), 'utf8')) as JsonObject;
    const { $schema: _dialect, $id: _id, $defs, ...topLevel } = schema;
    if ('type' in topLevel) add({ file }, topLevel);
    for (const [def, definition] of Object.entries(($defs ?? {}) as Record<string, JsonObject>)) add({ file, def }, definition);
  }
  return components;
}

function rewriteRefs(value: unknown, file: string, refPrefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, file, refPrefix));
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value as JsonObject)) {
    out[key] =
      key === '$ref' && typeof child === 'string' ? refPrefix + componentName(parseRef(child, file)) : rewriteRefs(child, file, refPrefix);
  }
  return out;
}

function parseRef(ref: string, currentFile: string): SchemaRef {
  const match = /^([^#]*)(?:#\/\$defs\/([^/]+))?$/.exec(ref);
  if (match === null) throw new Error(`${currentFile}: cannot express $ref ${ref} as an OpenAPI component.`);
  const file = match[1] === '' || match[1] === undefined ? currentFile : match[1];
  const def = match[2];
  return def === undefined ? { file } : { file, def };
}

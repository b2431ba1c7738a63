/**
 * A schema of `schemas/`: a whole file (a request body) or one of its `$defs`. The OpenAPI
 * document refers to it by the component name {@link componentName} gives it.
 */
export interface SchemaRef {
  /** File name inside `schemas/`, e.g. `trade-records.schema.json`. */
  readonly file: string;
  /** Name under the file's `$defs`; omitted for the file's top-level schema. */
  readonly def?: string;
}

const capitalize = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** `trade-records.schema.json` → `TradeRecordsBody`; `$defs/tradeRecord` → `TradeRecord`. */
export function componentName(ref: SchemaRef): string {
  if (ref.def !== undefined) return capitalize(ref.def);
  const stem = ref.file.replace(/\.schema\.json$/, '');
  return stem.split('-').map(capitalize).join('') + 'Body';
}

/** The `$ref` value that points at a schema's component. */
export function componentRef(ref: SchemaRef): string {
  return `#/components/schemas/${componentName(ref)}`;
}

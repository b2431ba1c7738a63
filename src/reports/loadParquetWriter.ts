/*
 * hyparquet-writer is published as an ES module only; the service compiles to CommonJS, so it is
 * loaded with a dynamic import (kept as `import()` by the compiler) once per process, and its types
 * are taken from that import.
 */
const importModule = () => import('hyparquet-writer');

export type ParquetWriterModule = Awaited<ReturnType<typeof importModule>>;
export type SchemaElement = NonNullable<Parameters<ParquetWriterModule['parquetWriteBuffer']>[0]['schema']>[number];

let loading: Promise<ParquetWriterModule> | undefined;

/** The Parquet writer library, loaded on first use. */
export function loadParquetWriter(): Promise<ParquetWriterModule> {
  loading ??= importModule();
  return loading;
}

import { ParquetFooterEncoder } from './ParquetFooterEncoder.js';

/*
 * hyparquet-writer is published as an ES module only; the service compiles to CommonJS, so it is
 * loaded with a dynamic import (kept as `import()` by the compiler) once per process, and its types
 * are taken from that import.
 */
const importModule = () => import('hyparquet-writer');
/** The footer writer, which the package exports only from its own path: report files are assembled from pre-encoded row groups. */
const importMetadata = () => import('hyparquet-writer/src/metadata.js');
/** The statistics conversion the footer writer uses, from the package's own path (the footer encoder uses it too). */
const importUnconvert = () => import('hyparquet-writer/src/unconvert.js');

export type ParquetWriterModule = Awaited<ReturnType<typeof importModule>>;
export type SchemaElement = NonNullable<Parameters<ParquetWriterModule['parquetWriteBuffer']>[0]['schema']>[number];
export type ParquetFooterWriter = Awaited<ReturnType<typeof importMetadata>>['writeMetadata'];
export type ParquetStatisticsConverter = Awaited<ReturnType<typeof importUnconvert>>['unconvertStatistics'];

let loading: Promise<ParquetWriterModule> | undefined;
let loadingFooter: Promise<ParquetFooterWriter> | undefined;
let loadingEncoder: Promise<ParquetFooterEncoder> | undefined;

/** The Parquet writer library, loaded on first use. */
export function loadParquetWriter(): Promise<ParquetWriterModule> {
  loading ??= importModule();
  return loading;
}

/**
 * The library's footer writer, loaded on first use.
 * @internal for the test that writes footers with the library itself to compare.
 */
export function loadParquetFooterWriter(): Promise<ParquetFooterWriter> {
  loadingFooter ??= importMetadata().then((module) => module.writeMetadata);
  return loadingFooter;
}

/** The footer encoder of assembled report files (one per process: it keeps each dataset's fixed footer bytes). */
export function loadParquetFooterEncoder(): Promise<ParquetFooterEncoder> {
  loadingEncoder ??= Promise.all([loadParquetWriter(), loadParquetFooterWriter(), importUnconvert()]).then(
    ([module, writeFooter, unconvert]) => new ParquetFooterEncoder(module, writeFooter, unconvert.unconvertStatistics),
  );
  return loadingEncoder;
}

import type { SchemaElement } from './loadParquetWriter.js';
import { AMOUNT_PRECISION, AMOUNT_SCALE, QUANTITY_PRECISION, QUANTITY_SCALE, type ReportColumn } from './reportColumns.js';

/** The explicit Parquet schema of a dataset: a root, then one flat leaf per column. */
export function parquetSchema(columns: readonly ReportColumn[]): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.map(element)];
}

function element(column: ReportColumn): SchemaElement {
  const repetition_type = column.nullable ? 'OPTIONAL' : 'REQUIRED';
  const { name } = column;
  switch (column.type) {
    case 'string':
      return { name, repetition_type, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'json':
      // JSON text in a string column: the JSON annotation would make the writer serialise every
      // value again on its slow path, and every reader can parse the text (DuckDB: `::JSON`).
      return { name, repetition_type, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'amount':
      return decimal(name, repetition_type, AMOUNT_SCALE, AMOUNT_PRECISION);
    case 'quantity':
      return decimal(name, repetition_type, QUANTITY_SCALE, QUANTITY_PRECISION);
    case 'int64':
      return { name, repetition_type, type: 'INT64' };
    case 'boolean':
      return { name, repetition_type, type: 'BOOLEAN' };
    case 'date':
      return { name, repetition_type, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'timestamp':
      return {
        name,
        repetition_type,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MICROS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
      };
    case 'local_timestamp':
      // No converted type: the legacy TIMESTAMP_MICROS means adjusted to UTC, which this is not.
      return { name, repetition_type, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } };
  }
}

function decimal(name: string, repetition_type: 'OPTIONAL' | 'REQUIRED', scale: number, precision: number): SchemaElement {
  return {
    name,
    repetition_type,
    type: 'INT64',
    converted_type: 'DECIMAL',
    scale,
    precision,
    logical_type: { type: 'DECIMAL', scale, precision },
  };
}

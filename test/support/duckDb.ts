import { DuckDBInstance, type DuckDBConnection, type Json } from '@duckdb/node-api';

/**
 * An in-memory DuckDB for reading report files as an analyst would: `read_parquet` over
 * downloaded files with Hive partitioning. DECIMAL values come back as exact decimal strings.
 */
export class DuckDb {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  static async open(): Promise<DuckDb> {
    const instance = await DuckDBInstance.create(':memory:');
    return new DuckDb(instance, await instance.connect());
  }

  async rows(sql: string): Promise<Record<string, Json>[]> {
    return (await this.connection.runAndReadAll(sql)).getRowObjectsJson();
  }

  /** The single row of a query. */
  async row(sql: string): Promise<Record<string, Json>> {
    const rows = await this.rows(sql);
    if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
    return rows[0] ?? {};
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/** `read_parquet` over every file of a dataset below `root`, partition values read from the paths. */
export function dataset(root: string, name: string): string {
  return `read_parquet('${root.replace(/'/g, "''")}/${name}/**/*.parquet', hive_partitioning = true)`;
}

/** A value DuckDB returned as text (DECIMAL, VARCHAR, BIGINT all come back as strings), or null. */
export function text(value: Json | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new Error(`expected a string from DuckDB, got ${typeof value}`);
  return value;
}

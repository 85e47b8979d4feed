// Declarations of the two dependencies that ship no types, as far as this package uses them.

declare module 'dbf' {
  /** A dBase III table: `meta` names each field, its type (C, N, L) and its width in bytes. */
  export function structure(rows: readonly Record<string, unknown>[], meta: readonly { name: string; type: 'C' | 'N' | 'L'; size: number }[]): DataView;
}

declare module 'node-sqlite3-wasm' {
  type SqlValue = number | string | bigint | Uint8Array | null;
  export class Statement {
    run(values?: readonly SqlValue[]): { changes: number; lastInsertRowid: number | bigint };
    finalize(): void;
  }
  export class Database {
    constructor(path: string, options?: { fileMustExist?: boolean; readOnly?: boolean });
    exec(sql: string): void;
    run(sql: string, values?: readonly SqlValue[]): { changes: number; lastInsertRowid: number | bigint };
    prepare(sql: string): Statement;
    close(): void;
  }
  const sqlite: { Database: typeof Database; Statement: typeof Statement };
  export default sqlite;
}

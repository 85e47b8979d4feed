// Declarations of the dependency that ships no types, as far as this package uses them.

declare module 'dbf' {
  /** A dBase III table: `meta` names each field, its type (C, N, L) and its width in bytes. */
  export function structure(rows: readonly Record<string, unknown>[], meta: readonly { name: string; type: 'C' | 'N' | 'L'; size: number }[]): DataView;
}

import type { Column, Dictionary } from './columns.js';

/** Why a stored index was not used, or a part of it proved damaged when read: it is rebuilt from the database. */
export class UnusableIndexFile extends Error {}

/** A row's value of a field read from where the index is stored, its column not in memory. */
export type RowReader = (field: string, row: number, dictionary: Dictionary | undefined) => unknown;

/**
 * Where a vintage index reads the columns it does not hold (a local index file: index-file.ts).
 * Whatever it returns is the same, value for value, as the column the index was stored from.
 */
export interface ColumnSource {
  /** Every field it holds, in stored order. */
  fields(): string[];
  /** A column whole; a coded column's dictionary is asked of `dictionary` (which may hold it already). */
  column(field: string, dictionary: (field: string) => Promise<Dictionary | undefined>): Promise<Column>;
  /** A coded column's dictionary alone; undefined for a column of another kind. */
  dictionary(field: string): Promise<Dictionary | undefined>;
  /** Whether `rows` can read the field's values (number and coded columns). */
  inRecords(field: string): boolean;
  /** Reads these rows once; the reader then answers any field that is inRecords. */
  rows(rows: readonly number[]): Promise<RowReader>;
}

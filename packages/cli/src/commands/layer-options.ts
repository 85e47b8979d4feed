import { UsageError } from './command.js';

/** `--header-row N`: the 1-based row of a workbook's header (import layer, inspect). */
export function headerRowOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`--header-row must be a row number (1 or more), not ${JSON.stringify(text)}`);
  return Number(text);
}

/**
 * Money as the API carries it: decimal strings with at most 4 places (numeric(12,4)). Amounts are
 * held as whole ten-thousandths of a dollar in a bigint, so sums and comparisons are exact;
 * floats never touch them.
 */
export type TenThousandths = bigint;

const DECIMAL = /^(\d+)(?:\.(\d{1,4}))?$/;

export function parseUsd(text: string): TenThousandths {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`not a decimal amount with at most 4 places: "${text}"`);
  return BigInt(match[1]!) * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'));
}

export function formatUsd(amount: TenThousandths): string {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  return `${sign}${abs / 10_000n}.${String(abs % 10_000n).padStart(4, '0')}`;
}

export const ZERO_USD = '0.0000';

/** The UTC calendar month of `at` as its first day, `YYYY-MM-01` (a `date` in PostgreSQL). */
export function utcMonth(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** `YYYY-MM` for answers (GET /v1/usage). */
export const monthLabel = (month: string) => month.slice(0, 7);

/** The first instant of the UTC month after `at`. */
export function nextUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

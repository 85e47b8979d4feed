// How values read on paper: numbers grouped, booleans as yes/no, lists joined, nothing as "—".

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const TENTHS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const NONE = '—';

export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return NONE;
  if (typeof value === 'number') return Number.isFinite(value) ? NUMBER.format(value) : NONE;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? NONE : value.map(formatValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The rule operators (D10) as a reader says them. */
const OPS: Record<string, string> = {
  eq: '=',
  ne: '≠',
  lt: '<',
  lte: '≤',
  gt: '>',
  gte: '≥',
  in: 'one of',
  not_in: 'none of',
  between: 'between',
  contains: 'contains',
  exists: 'is known',
};

export const formatOp = (op: string) => OPS[op] ?? op;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A short reference for an id a reader may need to quote (a vintage, a layer version, a delivery):
 * a UUID's first eight hex digits, upper-cased ("3F2A9C1B"), which is how the console shows them
 * too; anything else as it is.
 */
export function shortReference(id: string | null | undefined): string {
  if (!id) return NONE;
  return UUID.test(id) ? id.slice(0, 8).toUpperCase() : id;
}

/** Meters as a reader wants them: m below a kilometre, km with one decimal above; feet/miles beside. */
export function formatDistance(meters: number): string {
  const metric = meters < 1000 ? `${INTEGER.format(meters)} m` : `${TENTHS.format(meters / 1000)} km`;
  const feet = meters / 0.3048;
  const imperial = feet < 5280 ? `${INTEGER.format(feet)} ft` : `${TENTHS.format(feet / 5280)} mi`;
  return `${metric} (${imperial})`;
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return NONE;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toISOString().slice(0, 10);
}

/** `snake_case` names as words: "parcel_record" → "Parcel record". */
export function humanize(name: string): string {
  const words = name.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A file-name-safe form of a reference: letters, digits, dot, dash and underscore only. */
export function fileNamePart(reference: string): string {
  const safe = reference
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return safe || 'property';
}

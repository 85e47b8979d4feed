import fc from 'fast-check';
import { VALID, clone, type EndpointKey, type Req } from './valid-requests.js';

/**
 * Arbitrary requests for one endpoint, for the "no input answers 500" property (D2): arbitrary JSON
 * bodies, objects built from the endpoint's real field names with arbitrary values, the valid
 * request with one value replaced, raw text bodies, arbitrary query values and path parameters.
 */

type Path = (string | number)[];

/** Every field name the requests of both spec documents use, plus names that trip naive code. */
const ALL_FIELD_NAMES = [
  ...new Set(Object.values(VALID).flatMap((req) => keysOf((req as Req).body))),
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
];

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  return [];
}

/** Paths to every value inside `value` (the root included). */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const inner =
    Array.isArray(value)
      ? value.flatMap((item, index) => pathsOf(item, [...prefix, index]))
      : value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))
        : [];
  return [prefix, ...inner];
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = clone(root) as any;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path.at(-1)!] = value;
  return copy;
}

const json = fc.jsonValue({ maxDepth: 3 });

/** Strings of every kind: ASCII, full Unicode, lone surrogates, and values that look like numbers, dates, booleans. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '-1', '0', '1e309', '-0', '0x10', 'NaN', 'Infinity', 'true', 'null', '[]', '{}', '2024-02-30', '%', '\u0000', 'ﬀ', '🌵'),
  fc.nat({ max: 5000 }).map((length) => 'x'.repeat(length)),
);

/**
 * A path segment: any text, percent-encoded (lone surrogates replaced so that encoding cannot throw),
 * at most 1,000 characters (longer ones are the known 414 of the "path name 2000 chars" row).
 */
const segment = text.map((value) => encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD').slice(0, 300)));

export function arbitraryRequest(endpoint: EndpointKey): fc.Arbitrary<Req> {
  const base = VALID[endpoint] as Req;
  const template = endpoint.slice(endpoint.indexOf(' ') + 1).split('/');
  const concrete = base.path.split('/');
  const hasParams = template.some((part) => part.startsWith('{'));

  const path: fc.Arbitrary<string> = hasParams
    ? fc
        .tuple(...template.map((part, index) => (part.startsWith('{') ? fc.oneof(fc.constant(concrete[index]!), segment) : fc.constant(part))))
        .map((parts) => parts.join('/'))
    : fc.constant(base.path);

  const queryKeys = [...Object.keys(base.query ?? {}), 'unexpected', 'count_only', 'limit'];
  const query: fc.Arbitrary<Record<string, string> | undefined> = fc.oneof(
    fc.constant(base.query),
    fc.dictionary(fc.constantFrom(...queryKeys), text, { maxKeys: 4 }).map((extra) => ({ ...base.query, ...extra })),
    fc.dictionary(fc.constantFrom(...queryKeys), text, { maxKeys: 4 }),
  );

  /** A raw query string appended to the path: repeated keys, brackets, bad escapes, keys without a value. */
  const rawQuery = fc.oneof(
    { arbitrary: fc.constant(''), weight: 4 },
    { arbitrary: fc.constantFrom('?limit=1&limit=2', '?a[b]=1&a[c]=2', '?%zz=%zz', '?limit', '?=x', '?day=2024-01-01&day=2024-01-02', '?stage=new&stage=closed'), weight: 1 },
  );

  const names = [...new Set([...keysOf(base.body), ...ALL_FIELD_NAMES])];
  /** The valid body as text with one value replaced by a number literal JSON.stringify cannot write. */
  const numberLiteral = fc.constantFrom('1e309', '-1e309', '1e-400', '123456789012345678901234567890', '-0', '0.00000000000000000001', '1E2');
  const literalBody = fc.tuple(fc.constantFrom(...pathsOf(base.body)), numberLiteral).map(([at, literal]) => ({
    rawBody: JSON.stringify(setAt(base.body, at, '__LITERAL__')).replace('"__LITERAL__"', literal),
  }));
  const paths = pathsOf(base.body);
  const body: fc.Arbitrary<Pick<Req, 'body' | 'rawBody'>> =
    base.method === 'GET'
      ? fc.constant({})
      : fc.oneof(
          { arbitrary: json.map((value) => ({ body: value })), weight: 2 },
          { arbitrary: fc.dictionary(fc.constantFrom(...names), json, { maxKeys: 8 }).map((value) => ({ body: value })), weight: 3 },
          ...(base.body === undefined
            ? []
            : [
                { arbitrary: fc.tuple(fc.constantFrom(...paths), json).map(([at, value]) => ({ body: setAt(base.body, at, value) })), weight: 4 },
                { arbitrary: literalBody, weight: 1 },
              ]),
          { arbitrary: text.map((rawBody) => ({ rawBody })), weight: 1 },
          { arbitrary: fc.constant({}), weight: 1 },
        );

  /** Bodies are JSON whatever the declared type; an odd content type must not turn into a 500 either. */
  const contentType = fc.option(
    fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/xml', ''),
    { freq: 5 },
  );

  return fc
    .record({ path, rawQuery, query, body, contentType })
    .map(({ path: concretePath, rawQuery: suffix, query: queryValues, body: payload, contentType: type }) => ({
      method: base.method,
      path: concretePath + suffix,
      ...(queryValues && { query: queryValues }),
      headers: { ...base.headers, ...(type !== null && ('body' in payload || 'rawBody' in payload) && { 'content-type': type }) },
      ...payload,
    }));
}

import { Type, type ObjectOptions, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * The building blocks of the gateway's request schemas and of every response schema. They are
 * plain JSON Schema (what OpenAPI 3.1 embeds), so one declaration serves the gateway's validator,
 * the OpenAPI document, the tests' response check and, through `Static<>`, the TypeScript types.
 */
export const Str = (minLength: number | undefined, maxLength: number | undefined, extra: Record<string, unknown> = {}) =>
  Type.String({ ...(minLength !== undefined && { minLength }), ...(maxLength !== undefined && { maxLength }), ...extra });

export const Nullable = <T extends TSchema>(schema: T, extra: Record<string, unknown> = {}) =>
  Type.Union([schema, Type.Null()], extra);

export const Uuid = (extra: Record<string, unknown> = {}) => Type.String({ format: 'uuid', ...extra });

/** An RFC 3339 UTC instant, as every answer writes it (`2026-11-23T10:00:00.000Z`). */
export const Timestamp = (extra: Record<string, unknown> = {}) => Type.String({ format: 'date-time', ...extra });

/** A string out of a closed list. */
export const OneOf = <const T extends readonly string[]>(values: T, extra: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((value) => Type.Literal(value)), extra));

/**
 * Money and other exact amounts in a REQUEST: a JSON number or a decimal string, at most
 * `maxPlaces` decimals. The validator hands the handler a normalised decimal string; floats never
 * carry it further.
 */
export const Decimal = (options: { maxPlaces: number; minimum?: number; exclusiveMinimum?: number; maximum?: number; description?: string }) => {
  const { maxPlaces, description, ...bounds } = options;
  return Type.Unsafe<string>({
    anyOf: [
      { type: 'number', ...bounds },
      { type: 'string', pattern: `^[+-]?(\\d+\\.?\\d*|\\.\\d+)$` },
    ],
    'x-decimal': { maxPlaces },
    ...bounds,
    ...(description && { description }),
  });
};

/** Money in an ANSWER: always a decimal string with the column's four places ("12.5000"), never a float. */
export const DecimalString = (extra: Record<string, unknown> = {}) =>
  Type.String({ pattern: '^-?\\d+\\.\\d{4}$', description: 'USD as a decimal string with 4 places.', ...extra });

/**
 * "Open object" by content: any JSON object (facts, provenance, provider data, a contact); named
 * fields are documented, others are accepted as they are, in requests and answers alike.
 */
export const OpenObject = (properties: TProperties = {}, extra: ObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: true, ...extra });

/** A closed object: additional properties are rejected (`extra_forbidden`) or, in an answer, never sent. */
export const Closed = <T extends TProperties>(properties: T, extra: ObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: false, ...extra });

/**
 * A record the spec calls open ("Records whose fields are open": buy box, lead request, delivery,
 * property, pipeline item, diligence job, session, identity): clients must accept fields added
 * later, so the published schema allows them (`additionalProperties: true`). Today's fields are all
 * listed and required, and `x-open-record` marks the object so that the tests' response check
 * closes it: a field the server starts sending without declaring it fails a test.
 */
export const OpenRecord = <T extends TProperties>(properties: T, extra: ObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: true, 'x-open-record': true, ...extra });

/** The keyword OpenRecord marks its objects with (read by the test hook of @landscreen/testing). */
export const OPEN_RECORD_KEYWORD = 'x-open-record';

/** Custom keywords a JSON-schema validator must accept in these schemas (annotations, not assertions). */
export const CUSTOM_KEYWORDS = ['x-decimal', 'x-name', OPEN_RECORD_KEYWORD] as const;

export const AnyObject = Type.Object({}, { additionalProperties: true });

import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks of the request and response schemas. The schemas are plain JSON Schema (what
 * OpenAPI 3.1 embeds); the gateway's validator reads them and answers D1 errors.
 */
export const Str = (minLength: number | undefined, maxLength: number | undefined, extra: Record<string, unknown> = {}) =>
  Type.String({ ...(minLength !== undefined && { minLength }), ...(maxLength !== undefined && { maxLength }), ...extra });

export const Nullable = <T extends TSchema>(schema: T, extra: Record<string, unknown> = {}) =>
  Type.Union([schema, Type.Null()], extra);

export const Uuid = (extra: Record<string, unknown> = {}) => Type.String({ format: 'uuid', ...extra });

/**
 * Money and other exact amounts: a JSON number or a decimal string, at most `maxPlaces` decimals.
 * The validator hands the handler a normalised decimal string; floats never carry it further.
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

/** "Open object": any JSON object; named fields are documented, others are accepted as they are. */
export const OpenObject = (properties: Record<string, TSchema> = {}, extra: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: true, ...extra });

/** A closed object: additional properties are rejected (`extra_forbidden`). */
export const Closed = (properties: Record<string, TSchema>, extra: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: false, ...extra });

/** Every endpoint but sign-in and health accepts these (spec: Endpoints conventions). */
export const TenantHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Bearer <session token> (D4), dev:<email>[:<role>] (D7) or the legacy shared secret.' })),
  'x-tenant': Type.Optional(Type.String({ description: 'Slug of the tenant to act in (D3).' })),
});

/** D2 error body. */
export const ErrorBody = Type.Object(
  {
    detail: Type.String(),
    code: Type.String(),
  },
  { $id: 'Error', additionalProperties: true, description: 'D2: a human sentence and a snake_case code, plus named fields.' },
);

/** D1 validation error body. */
export const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        type: Type.String(),
        input: Type.Optional(Type.Unknown()),
        ctx: Type.Optional(Type.Object({}, { additionalProperties: true })),
      }),
    ),
  },
  { $id: 'HTTPValidationError' },
);

export const AnyObject = Type.Object({}, { additionalProperties: true });

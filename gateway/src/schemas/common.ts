import { Type } from '@sinclair/typebox';

// The building blocks and the D1/D2 error bodies are declared once, in @landscreen/api-schemas,
// for the request schemas here and the response schemas there alike.
export { AnyObject, Closed, Decimal, Nullable, OpenObject, Str, Uuid } from '@landscreen/api-schemas';
export { ErrorBody, ValidationErrorBody } from '@landscreen/api-schemas';

/** Every endpoint but sign-in and health accepts these (spec: Endpoints conventions). */
export const TenantHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Bearer <session token> (D4), dev:<email>[:<role>] (D7) or the legacy shared secret.' })),
  'x-tenant': Type.Optional(Type.String({ description: 'Slug of the tenant to act in (D3).' })),
});

import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './building-blocks.js';

/** D2: every error but validation — a human sentence, a snake_case code, and named fields of its own. */
export const ErrorBody = Type.Object(
  {
    detail: Type.String({ description: 'A human sentence.' }),
    code: Type.String({ pattern: '^[a-z][a-z0-9_]*$', description: 'snake_case: what a client branches on.' }),
  },
  { $id: 'Error', additionalProperties: true, description: 'D2: a human sentence and a snake_case code, plus named fields.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** D1: a request that fails validation, pydantic-style. */
export const ValidationErrorBody = Closed(
  {
    detail: Type.Array(
      Closed({
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
export type ValidationErrorBody = Static<typeof ValidationErrorBody>;

/** 402 insufficient_credits (D34): nothing charged. */
export const InsufficientCreditsBody = Closed(
  { detail: Type.String(), code: Type.Literal('insufficient_credits'), required: Type.Integer(), remaining: Type.Integer() },
  { $id: 'InsufficientCredits' },
);
export type InsufficientCreditsBody = Static<typeof InsufficientCreditsBody>;

import { Type } from '@sinclair/typebox';
import { OpenObject, Str } from './common.js';

export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$';

export const RequestLinkBody = OpenObject({
  email: Str(3, 320, { format: 'email' }),
  tenant: Type.Optional(Str(1, 63, { pattern: SLUG_PATTERN, description: 'Slug of the tenant to sign in to (D5).' })),
});

export const VerifyBody = OpenObject({
  token: Str(1, 512, { description: 'The token from the emailed link.' }),
});

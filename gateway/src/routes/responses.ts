import { AnyObject } from '../schemas/common.js';
import type { ResponseSpec } from './route.js';
import type { Schema } from '../validation/index.js';

export const json = (description: string, schema: Schema = AnyObject): ResponseSpec => ({ description, schema });
export const noContent = (description: string): ResponseSpec => ({ description });
export const pdf = (description: string): ResponseSpec => ({ description, contentType: 'application/pdf' });

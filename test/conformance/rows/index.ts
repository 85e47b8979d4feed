import * as authBuyboxes from './auth-buyboxes.js';
import * as boardLeads from './board-leads.js';
import * as diligence from './diligence.js';
import * as discovery from './discovery.js';
import * as internalCatalog from './internal-catalog.js';
import { multi } from './multi.js';
import type { AcceptRow, BadRow, StatusRow } from './helpers.js';

export type { AcceptRow, BadRow, Expected, Loc, StatusRow } from './helpers.js';

const sections = [authBuyboxes, discovery, boardLeads, diligence, internalCatalog];

/** One change each: exactly one error expected. */
export const BAD_ROWS: BadRow[] = sections.flatMap((section) => section.bad);
/** Several changes: every one of them reported, and nothing else. */
export const MULTI_ROWS: BadRow[] = multi;
/** Edges of the limits and open-object extras: must pass validation. */
export const ACCEPT_ROWS: AcceptRow[] = sections.flatMap((section) => section.accept);
/** Rules beyond one field's schema that docs/design.md sends to 422. */
export const STATUS_ROWS: StatusRow[] = [...authBuyboxes.status, ...discovery.status];

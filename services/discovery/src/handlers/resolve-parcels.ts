import type { HandlerContext } from '@connectrpc/connect';
import { sql } from 'kysely';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { normaliseAddress, normaliseApn } from '@landscreen/parcel-io';
import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { requireCaller, validationError } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { marketForCaller } from '../market-access.js';
import { parcelCandidate } from '../candidates.js';
import { parcelFacts, PARCEL_COLUMNS, type ParcelRow } from '../parcel-rows.js';
import { discoveryResult, mustEvidence } from '../results.js';
import { appliedSpec } from './query.js';

const MAX_CANDIDATES = 10;
/** The most lookups one call takes (a lead import's rows, D30). */
export const MAX_LOOKUPS = 10_000;

type Resolution = MessageInitShape<typeof discoveryv1.ParcelResolutionSchema>;
type MatchedBy = 'apn' | 'address' | 'parcel_key' | 'address_similar';

interface Pending {
  index: number;
  apn: string;
  address: string;
  parcelKey: string;
}

/** Groups rows by a key column, keeping each group's first MAX_CANDIDATES in query order. */
function groupBy<T extends ParcelRow>(rows: T[], keyOf: (row: T) => string): Map<string, ParcelRow[]> {
  const groups = new Map<string, ParcelRow[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key) ?? [];
    if (group.length < MAX_CANDIDATES) group.push(row);
    groups.set(key, group);
  }
  return groups;
}

/**
 * Many rows of one market resolved at once (lead import and deliveries, D30), by the rules of
 * Resolve (D17) plus a parcel_key: each step is one set-based query over the rows still
 * unresolved — APNs, then exact normalised addresses, then parcel keys, then the remaining
 * addresses by trigram similarity (one lateral query, best first) — instead of a call per row.
 * With a buy box of the same market, each resolved parcel is evaluated against it exactly as
 * EvaluateParcel does. `lean` leaves out what a bulk caller need not keep per parcel (the proto
 * says what). Reads only.
 */
export function resolveParcelsHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.ResolveParcelsRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    if (request.lookups.length > MAX_LOOKUPS) {
      throw validationError([{ type: 'too_long', loc: ['body', 'rows'], msg: `List should have at most ${MAX_LOOKUPS} items after validation, not ${request.lookups.length}`, input: request.lookups.length, ctx: { field_type: 'List', max_length: MAX_LOOKUPS, actual_length: request.lookups.length } }]);
    }
    const pending: Pending[] = request.lookups.map((lookup, index) => ({
      index,
      apn: lookup.apn?.trim() ? normaliseApn(lookup.apn) : '',
      address: lookup.address?.trim() ? normaliseAddress(lookup.address) : '',
      parcelKey: lookup.parcelKey ?? '',
    }));
    const empty = pending.find((row) => !row.apn && !row.address && !row.parcelKey);
    if (empty) {
      throw validationError([{ type: 'value_error', loc: ['body', 'rows', empty.index], msg: 'Value error, give an apn, an address or a parcel_key', input: {}, ctx: { error: 'apn, address or parcel_key required' } }]);
    }
    const access = await marketForCaller(context, tenantId, request.market);
    const vintageId = access.vintage.id;
    const inVintage = context.db.selectFrom('parcels').select(PARCEL_COLUMNS).where('vintage_id', '=', vintageId);
    const screen = request.buyBox === undefined ? undefined : await appliedSpec(context, call, request.buyBox, undefined);
    if (screen && screen.access.market.id !== access.market.id) {
      throw validationError([{ type: 'value_error', loc: ['body', 'buy_box'], msg: `Value error, the buy box screens market ${screen.access.market.slug}, not ${access.market.slug}`, input: request.buyBox, ctx: { error: 'buy box of another market' } }]);
    }
    // The holder of the market answers (it runs the searches below once, there).
    await context.indexes.here(access.market, call);

    const found = new Map<number, { matchedBy: MatchedBy; rows: ParcelRow[] }>();
    const step = async (matchedBy: MatchedBy, keyOf: (row: Pending) => string, query: (keys: string[]) => Promise<Map<string, ParcelRow[]>>) => {
      const open = pending.filter((row) => !found.has(row.index) && keyOf(row));
      if (open.length === 0) return;
      const groups = await query([...new Set(open.map(keyOf))]);
      for (const row of open) {
        const rows = groups.get(keyOf(row));
        if (rows && rows.length > 0) found.set(row.index, { matchedBy, rows });
      }
    };
    await step('apn', (row) => row.apn, async (apns) => {
      const rows = await inVintage
        .select('apn_normalised as k')
        .where((eb) => eb('apn_normalised', '=', eb.fn.any(eb.val(apns))))
        .orderBy('parcel_key')
        .$narrowType<{ k: string }>()
        .execute();
      return groupBy(rows, (row) => row.k);
    });
    await step('address', (row) => row.address, async (addresses) => {
      const rows = await inVintage
        .select('address_normalised as k')
        .where((eb) => eb('address_normalised', '=', eb.fn.any(eb.val(addresses))))
        .orderBy('parcel_key')
        .$narrowType<{ k: string }>()
        .execute();
      return groupBy(rows, (row) => row.k);
    });
    await step('parcel_key', (row) => row.parcelKey, async (keys) => {
      const rows = await inVintage.where((eb) => eb('parcel_key', '=', eb.fn.any(eb.val(keys)))).execute();
      return groupBy(rows, (row) => row.parcel_key);
    });
    await step('address_similar', (row) => row.address, async (addresses) => {
      // SQL text: a lateral search per address of `unnest(…) as a(address)`, a table function with
      // named columns that the builder has no word for.
      const { rows } = await sql<ParcelRow & { k: string }>`
        select p.*, a.address as k from unnest(${addresses}::text[]) as a(address)
        cross join lateral (
          select ${sql.join(PARCEL_COLUMNS.map((column) => sql.ref(column)))} from discovery.parcels
          where vintage_id = ${vintageId} and address_normalised % a.address
          order by similarity(address_normalised, a.address) desc, parcel_key limit ${MAX_CANDIDATES}
        ) p`.execute(context.db);
      return groupBy(rows, (row) => row.k);
    });

    const index = found.size > 0 ? await context.indexes.ranking(access, call) : undefined;
    // The facts of every resolved parcel, read at once (one read a row where a column is not resident).
    const resolvedRows = [...found.values()].filter((match) => match.rows.length === 1).map((match) => index!.rowOfKey(match.rows[0]!.parcel_key)!);
    const values = index ? await index.rowValues(resolvedRows) : undefined;
    const resolutions: Resolution[] = pending.map((row) => {
      const match = found.get(row.index);
      if (!match) return { status: 'not_found', matchedBy: '', candidates: [] };
      const brief = (parcel: ParcelRow) => ({
        parcelKey: parcel.parcel_key,
        apn: parcel.apn ?? undefined,
        address: parcel.address ?? undefined,
        acres: parcel.acres ?? undefined,
        lat: parcel.lat ?? undefined,
        lon: parcel.lon ?? undefined,
      });
      if (match.rows.length > 1) return { status: 'ambiguous', matchedBy: match.matchedBy, candidates: match.rows.map(brief) };
      const parcel = match.rows[0]!;
      const indexRow = index!.rowOfKey(parcel.parcel_key)!;
      const split = parcelFacts(values!, indexRow, access.vintage);
      let evaluation;
      if (screen) {
        const evaluated = screen.compiled.evaluate((field) => split.facts[field]);
        evaluation = {
          eligible: evaluated.eligible,
          verdict: evaluated.verdict,
          score: evaluated.score,
          reviewRequired: evaluated.reviewRequired,
          // The property keeps the geometry (its ParcelCandidate); the screen need not repeat it.
          // Lean rows are built without the facts and provenance: computing the provenance is
          // most of the work, and the candidate carries the facts.
          result: discoveryResult(parcel, split, evaluated, access.vintage, { geometry: true, facts: request.lean }),
          failed: mustEvidence(evaluated.failed),
        };
      }
      return {
        status: 'resolved',
        matchedBy: match.matchedBy,
        candidates: [{ ...brief(parcel), parcel: parcelCandidate(access, parcel, split, request.lean), evaluation }],
      };
    });
    return {
      market: access.market.slug,
      marketId: access.market.id,
      vintageId,
      resolutions,
      screen: screen && {
        buyBoxId: screen.saved!.id,
        buyBox: screen.saved!.name,
        specHash: screen.saved!.spec_hash,
        queryHash: screen.hash,
        appliedSpec: discoveryjson.buyBoxSpecMessage(screen.spec),
      },
    };
  };
}

import type { MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { normaliseAddress } from '@landscreen/parcel-io';
import type { discoveryv1 } from '@landscreen/proto';
import { forbidden, issue, notFound, requireCaller, validationError } from '@landscreen/rpc';
import { addressSimilarity, similarAddress } from '../address-similarity.js';
import type { DiscoveryContext } from '../context.js';
import { entitledColumn } from '../market-access.js';

type Response = MessageInitShape<typeof discoveryv1.GeocodeAddressResponseSchema>;

const MAX_ADDRESS_LENGTH = 500;
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 10;

interface MatchRow {
  vintage_id: string;
  parcel_key: string;
  /** Never null where the normalised address matched. */
  address: string | null;
  lat: number | null;
  lon: number | null;
  score: number;
}

/**
 * An address among the loaded parcels' addresses (POST /v1/lookup, D35): D17's comparison, i.e.
 * USPS-normalised equality first, else pg_trgm similarity above its threshold (0.3) through the
 * address trigram index, in the current vintage of the market named or of every entitled market.
 */
export function geocodeAddressHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.GeocodeAddressRequest, call: HandlerContext): Promise<Response> => {
    const { tenantId } = requireCaller(call);
    const normalised = normaliseAddress(request.address ?? '');
    if (normalised === '' || request.address.length > MAX_ADDRESS_LENGTH) {
      throw validationError([issue.valueError(['body', 'address'], request.address, 'give an address with letters or digits (at most 500 characters)')]);
    }
    const limit = request.limit > 0 ? Math.min(request.limit, MAX_LIMIT) : DEFAULT_LIMIT;
    const vintages = await searchedVintages(context, tenantId, request.market);
    if (vintages.size === 0) return { matches: [], vintageIds: [], normalised };
    const inVintages = context.db.selectFrom('parcels').where('vintage_id', 'in', [...vintages.keys()]);
    let rows: MatchRow[] = await inVintages
      .select((eb) => ['vintage_id', 'parcel_key', 'address', 'lat', 'lon', eb.cast<number>(eb.lit(1), 'float8').as('score')])
      .where('address_normalised', '=', normalised)
      .orderBy('vintage_id')
      .orderBy('parcel_key')
      .limit(limit)
      .execute();
    const exact = rows.length > 0;
    if (!exact) {
      rows = await inVintages
        .select((eb) => ['vintage_id', 'parcel_key', 'address', 'lat', 'lon', eb.cast<number>(addressSimilarity(eb, normalised), 'float8').as('score')])
        .where((eb) => similarAddress(eb, normalised))
        .orderBy('score', 'desc')
        .orderBy('vintage_id')
        .orderBy('parcel_key')
        .limit(limit)
        .execute();
    }
    return {
      matches: rows.map((row) => ({
        market: vintages.get(row.vintage_id)!,
        vintageId: row.vintage_id,
        parcelKey: row.parcel_key,
        address: row.address ?? '',
        lat: row.lat ?? undefined,
        lon: row.lon ?? undefined,
        score: Number(row.score),
        match: exact ? 'exact' : 'similar',
      })),
      vintageIds: [...vintages.keys()],
      normalised,
    };
  };
}

/** vintage id → market slug: the named market's current vintage (D16's checks), or every entitled one's. */
async function searchedVintages(context: DiscoveryContext, tenantId: string, market: string): Promise<Map<string, string>> {
  const query = context.db.selectFrom('markets').select(['slug', 'current_vintage_id', entitledColumn(tenantId)]);
  if (market !== '') {
    const row = await query.where('slug', '=', market).executeTakeFirst();
    if (!row) throw notFound('market_not_found', `No market "${market}".`);
    if (!row.entitled) throw forbidden('not_entitled', `Your organization is not entitled to market "${market}".`);
    return new Map(row.current_vintage_id ? [[row.current_vintage_id, row.slug]] : []);
  }
  const rows = await query.where('current_vintage_id', 'is not', null).orderBy('slug').execute();
  return new Map(rows.filter((row) => row.entitled).map((row) => [row.current_vintage_id!, row.slug]));
}

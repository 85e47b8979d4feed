import type { MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { sql } from 'kysely';
import { normaliseAddress } from '@landscreen/parcel-io';
import type { discoveryv1 } from '@landscreen/proto';
import { forbidden, issue, notFound, requireCaller, validationError } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { entitledColumn } from '../market-access.js';

type Response = MessageInitShape<typeof discoveryv1.GeocodeAddressResponseSchema>;

const MAX_ADDRESS_LENGTH = 500;
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 10;

interface MatchRow {
  vintage_id: string;
  parcel_key: string;
  address: string;
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
    const ids = sql.join([...vintages.keys()].map((id) => sql`${id}::uuid`));
    let rows = (await sql<MatchRow>`
      select vintage_id::text, parcel_key, address, lat, lon, 1::float8 as score from discovery.parcels
      where vintage_id in (${ids}) and address_normalised = ${normalised}
      order by vintage_id, parcel_key limit ${limit}`.execute(context.db)).rows;
    const exact = rows.length > 0;
    if (!exact) {
      rows = (await sql<MatchRow>`
        select vintage_id::text, parcel_key, address, lat, lon, similarity(address_normalised, ${normalised})::float8 as score
        from discovery.parcels
        where vintage_id in (${ids}) and address_normalised % ${normalised}
        order by score desc, vintage_id, parcel_key limit ${limit}`.execute(context.db)).rows;
    }
    return {
      matches: rows.map((row) => ({
        market: vintages.get(row.vintage_id)!,
        vintageId: row.vintage_id,
        parcelKey: row.parcel_key,
        address: row.address,
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

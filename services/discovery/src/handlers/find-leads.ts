import type { HandlerContext } from '@connectrpc/connect';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { discoveryv1 } from '@landscreen/proto';
import { validationError } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { openJson } from '../messages/json-bytes.js';
import { parcelFacts, parcelRowsByKey, provenanceOf } from '../parcel-rows.js';
import { pageAfter } from '../ranking/page.js';
import { shownNumber } from '../results.js';
import { chosenFields, shownFacts, shownProvenance } from '../shown-facts.js';
import { preparedQuery } from './query.js';

type FindLeadsAnswer = MessageInitShape<typeof discoveryv1.FindLeadsResponseSchema>;

/** D29: the live match count and per-verdict split, and without count_only the ranked rows. */
export function findLeadsHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.FindLeadsRequest, call: HandlerContext): Promise<FindLeadsAnswer> => {
    if (request.buyBox === undefined && request.draftJson === undefined) {
      throw validationError([
        { type: 'value_error', loc: ['body'], msg: 'Value error, give a buy_box or a draft', input: {}, ctx: { error: 'buy_box or draft required' } },
      ]);
    }
    const { compiled, index, ranking, access } = await preparedQuery(context, call, request.buyBox, request.draftJson);
    const chosen = chosenFields(request.fields, access.vintage);
    const { PURSUE, MONITOR, HOLD } = ranking.byVerdict;
    const summary = { count: ranking.eligibleTotal, byVerdict: { pursue: PURSUE, monitor: MONITOR, hold: HOLD } };
    if (request.countOnly) return summary;
    const page = pageAfter(index, ranking, Math.max(0, request.limit));
    // Leads are the ranked parcels without geometry and facts: a list to scan, not a map to draw
    // (so neither their JSON nor the provenance is built), unless the caller chose facts (D40).
    const [parcels, values] = await Promise.all([parcelRowsByKey(context.db, index.vintageId, page.rows.map((row) => index.keys.at(row)!)), index.rowValues(page.rows)]);
    const rows = page.rows.map((indexRow) => {
      const parcel = parcels.get(index.keys.at(indexRow)!)!;
      const split = parcelFacts(values, indexRow, access.vintage);
      const evaluation = compiled.evaluate((field) => split.facts[field]);
      return {
        parcelKey: parcel.parcel_key,
        apn: parcel.apn ?? undefined,
        address: parcel.address ?? undefined,
        lat: parcel.lat ?? undefined,
        lon: parcel.lon ?? undefined,
        acres: shownNumber('acres', parcel.acres),
        score: evaluation.score,
        verdict: evaluation.verdict,
        reviewRequired: evaluation.reviewRequired,
        unknowns: evaluation.unknowns,
        ...(chosen && {
          factsJson: openJson(shownFacts(split.facts, chosen)),
          provenanceJson: openJson(shownProvenance(provenanceOf(parcel, split, { id: index.vintageId, fieldProvenance: access.vintage.fieldProvenance }), chosen)),
        }),
      };
    });
    return { ...summary, rows };
  };
}

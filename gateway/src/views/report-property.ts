import { type pipelinev1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { propertyHeadJson } from './property.js';

const decoder = new TextDecoder();
const documentOf = (bytes: Uint8Array, empty: unknown): unknown => (bytes.length === 0 ? empty : JSON.parse(decoder.decode(bytes)));

/**
 * A property page reduced to what a PDF report prints (GetReportProperties, D30), in the shape of
 * the D28 page the site report reads: the parcel's typed facts and geometry only, the screening's
 * evaluation only its score breakdown, no contacts or diligence.
 */
export function reportPropertyPage(property: pipelinev1.ReportProperty) {
  const screen = property.screen;
  return {
    property: {
      ...propertyHeadJson(property),
      parcel: { typed: documentOf(property.typedFactsJson, {}), geometry: documentOf(property.geometryJson, null) },
      created_at: property.createdAt,
      pipeline_item: property.stage === undefined ? null : { stage: property.stage },
    },
    deep_screen: screen
      ? {
          buy_box: screen.buyBox,
          buy_box_id: screen.buyBoxId,
          spec_hash: screen.specHash,
          vintage_id: screen.vintageId,
          source: screen.source,
          verdict: screen.verdict,
          score: screen.score,
          eligible: screen.eligible,
          applied_spec: discoveryjson.buyBoxSpecValue(screen.appliedSpec),
          evaluation: {
            score_breakdown: screen.scoreBreakdown
              ? {
                  must: discoveryjson.mustEvidenceValues(screen.scoreBreakdown.must),
                  preferred: discoveryjson.preferredEvidenceValues(screen.scoreBreakdown.preferred),
                }
              : null,
          },
          screened_at: screen.screenedAt,
        }
      : null,
    contacts: [],
    diligence: null,
  };
}

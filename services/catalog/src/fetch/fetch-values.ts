// D34's per-location results as FetchResult messages, from either source of values: the engine's
// packed answer, or EvaluatePoints' answers (the path of parcel_record fields). fetch/batch answers
// them and a run writes them as NDJSON, through @landscreen/fetch-results in both cases.

import type { MessageInitShape } from '@bufbuild/protobuf';
import { answerFetchValues, engineFetchValues } from '@landscreen/fetch-results';
import type { EngineAnswer } from '@landscreen/point-engine';
import { catalogv1 } from '@landscreen/proto';

type LocationResultInit = MessageInitShape<typeof catalogv1.LocationResultSchema>;

const RESULT = catalogv1.FetchResultSchema.typeName;

export interface ResultLocation {
  lat: number;
  lon: number;
  /** The caller's id; null when it gave none. */
  id: string | null;
}

function result(location: ResultLocation, values: catalogv1.FetchValues): catalogv1.FetchResult {
  return { $typeName: RESULT, id: location.id ?? undefined, lat: location.lat, lon: location.lon, values };
}

/** The results straight from the engine's packed answer (no per-answer EvaluatePoints messages). */
export function engineFetchResults(locations: readonly ResultLocation[], answer: EngineAnswer): catalogv1.FetchResult[] {
  const results = new Array<catalogv1.FetchResult>(answer.size);
  for (let n = 0; n < answer.size; n++) results[n] = result(locations[n], engineFetchValues(answer, n));
  return results;
}

/** The results from EvaluatePoints' answers (the path of parcel_record fields), one per location. */
export function answerFetchResults(locations: readonly ResultLocation[], answers: readonly LocationResultInit[]): catalogv1.FetchResult[] {
  return answers.map((located, n) => result(locations[n], answerFetchValues(located.answers)));
}

// Phrases for null_meaning, kept in one place so every field states the spec's general value
// rules the same way: a null is a semantic absence (nothing there, or outside coverage) or the
// failure of a local data index (rule 1); search-limited fields are null beyond their radius
// (rule 2); counts are 0, not null, for an empty radius (rule 3); CONUS-only fields are null
// outside the contiguous United States (rule 5).

const unavailable = (index: string) => `the ${index} index is unavailable`;

/** Polygon attributes: null when the point is in no such polygon. */
export function notInside(feature: string, index: string): string {
  return `The point is not inside ${feature}, or ${unavailable(index)}.`;
}

/** Nearest-feature fields without a stated search radius. */
export function noneFound(feature: string, index: string): string {
  return `No ${feature} was found for the point, or ${unavailable(index)}.`;
}

/** Nearest-feature name fields, where the feature may also simply be unnamed. */
export function noneOrUnnamed(feature: string, index: string): string {
  return `No ${feature} was found for the point or it has no name, or ${unavailable(index)}.`;
}

/** Search-limited fields (general rule 2). */
export function noneWithin(feature: string, radius: string, index: string): string {
  return `No ${feature} within the ${radius} search radius, or ${unavailable(index)}.`;
}

/** Gridded or regional values. */
export function outsideCoverage(index: string): string {
  return `The point is outside the coverage of the ${index} data, or that index is unavailable.`;
}

/** Fields described as CONUS only (general rule 5). */
export function conusOnly(index: string): string {
  return `The point is outside the contiguous United States (CONUS only), or ${unavailable(index)}.`;
}

/** Counts (general rule 3): a null can only mean the index failed. */
export function countUnavailable(index: string): string {
  return `The ${index} index is unavailable; an empty radius counts 0, not null.`;
}

/** Attributes the source may leave unpublished for an otherwise matched feature. */
export function notPublished(feature: string, index: string): string {
  return `The point is not inside ${feature} or the attribute is not published for it, or ${unavailable(index)}.`;
}

export function derivedFrom(input: string): string {
  return `The input ${input} is null.`;
}

/** Attributes of a nearest feature that the source may leave unpublished. */
export function noneOrNotPublished(feature: string, index: string): string {
  return `No ${feature} was found for the point or the attribute is not published for it, or ${unavailable(index)}.`;
}

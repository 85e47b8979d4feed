import type { ExpressionSpecification } from 'maplibre-gl';

/** Verdict colours: the map's fill, the list's and the panel's badges, and the legend, alike. */
export const VERDICT_COLOURS = { PURSUE: '#1a7f37', MONITOR: '#d4a72c', HOLD: '#6e7781' } as const;

export const verdictFill: ExpressionSpecification = ['match', ['get', 'verdict'], 'PURSUE', VERDICT_COLOURS.PURSUE, 'MONITOR', VERDICT_COLOURS.MONITOR, VERDICT_COLOURS.HOLD];

/** Score shading: light at 0, deep blue at 100. */
export const SCORE_STOPS = [
  [0, '#eff3ff'],
  [50, '#6baed6'],
  [100, '#08306b'],
] as const;
export const scoreFill: ExpressionSpecification = ['interpolate', ['linear'], ['get', 'score'], ...SCORE_STOPS.flat()] as ExpressionSpecification;

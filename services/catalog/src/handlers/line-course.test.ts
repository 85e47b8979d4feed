import { describe, expect, it } from 'vitest';
import { buildVectorLayer, rulerAt } from '@landscreen/point-engine';
import { lineCourseNear } from './line-course.js';

// A line's course near a point, as the site report's map draws it.
describe('lineCourseNear', () => {
  const layer = buildVectorLayer('hifld_transmission_lines', 'v1', [
    // A long straight span whose two vertices lie far outside any square about the point.
    { geometry: { type: 'LineString', coordinates: [[-97.033, 34.0], [-97.033, 36.0]] } },
    // A line that wanders away: only its segments near the point are kept.
    { geometry: { type: 'LineString', coordinates: [[-96.9, 35.0], [-96.95, 35.0], [-97.0, 35.0], [-98.0, 35.0], [-99.0, 35.0]] } },
  ]);
  const substations = buildVectorLayer('hifld_substations', 'v1', [{ geometry: { type: 'Point', coordinates: [-97, 35] } }]);
  const ruler = rulerAt(35);

  it('keeps a straight span that crosses the square though both its vertices lie outside', () => {
    expect(lineCourseNear(layer.shape(0), -97.0, 35.0, 5_000, ruler)).toEqual([{ lonLat: [-97.033, 34.0, -97.033, 36.0] }]);
  });

  it('keeps only the segments meeting the square, as one path while they run on', () => {
    expect(lineCourseNear(layer.shape(1), -96.95, 35.0, 2_000, ruler)).toEqual([{ lonLat: [-96.9, 35.0, -96.95, 35.0, -97.0, 35.0] }]);
  });

  it('answers nothing for a point feature or a line far away', () => {
    expect(lineCourseNear(substations.shape(0), -97.0, 35.0, 5_000, ruler)).toEqual([]);
    expect(lineCourseNear(layer.shape(0), -90.0, 35.0, 5_000, ruler)).toEqual([]);
  });
});

// The parcel drawn to scale: a local equirectangular projection about the parcel's centre
// (distortion well under 0.1 % over the few kilometres a parcel map spans), with a scale bar in
// metres and feet, a north arrow, and the nearest substation and transmission line — on the map
// when they lie close enough that the parcel stays legible, else as a bearing arrow at the edge.

import type { GridFeature, ParcelMap } from './model.js';
import { formatDistance } from './format.js';
import { outlineAt, outlines, outlinesIn, type Outline } from './outlines.js';
import { COLORS, FONT, FONT_BOLD, type Doc } from './theme.js';

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;
/** The smallest span a map shows, in metres: a point or a tiny lot still gets a legible frame. */
const MIN_SPAN_M = 300;
/** Grid features farther than this many parcel spans away are shown as edge arrows instead. */
const MAX_ZOOM_OUT = 6;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Projected {
  x: number;
  y: number;
}

/** Outer rings and holes of a polygonal geometry, as [lon, lat] positions. */
function ringsOf(geometry: ParcelMap['geometry']): number[][][] {
  if (!geometry || !Array.isArray(geometry.coordinates)) return [];
  const valid = (ring: unknown): ring is number[][] =>
    Array.isArray(ring) && ring.length >= 3 && ring.every((p) => Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1]));
  if (geometry.type === 'Polygon') return (geometry.coordinates as unknown[]).filter(valid);
  if (geometry.type === 'MultiPolygon') return (geometry.coordinates as unknown[][]).flatMap((polygon) => (Array.isArray(polygon) ? polygon.filter(valid) : []));
  return [];
}

function pointOf(map: ParcelMap): [number, number] | null {
  const geometry = map.geometry;
  if (geometry?.type === 'Point' && Array.isArray(geometry.coordinates)) {
    const [lon, lat] = geometry.coordinates as number[];
    if (Number.isFinite(lon) && Number.isFinite(lat)) return [lon!, lat!];
  }
  return map.point && Number.isFinite(map.point.lat) && Number.isFinite(map.point.lon) ? [map.point.lon, map.point.lat] : null;
}

/** A "nice" length (1, 2 or 5 × 10^k) not above `limit`. */
export function niceLength(limit: number): number {
  const power = 10 ** Math.floor(Math.log10(limit));
  for (const step of [5, 2, 1]) if (step * power <= limit) return step * power;
  return power;
}

export function drawParcelMap(doc: Doc, map: ParcelMap, box: Box): void {
  doc.save();
  doc.rect(box.x, box.y, box.w, box.h).fillAndStroke(COLORS.mapBackground, COLORS.rule);
  doc.restore();

  const rings = ringsOf(map.geometry);
  const point = pointOf(map);
  if (rings.length === 0 && !point) {
    doc.font(FONT).fontSize(10).fillColor(COLORS.muted).text('No parcel geometry or location is on record.', box.x, box.y + box.h / 2 - 6, { width: box.w, align: 'center' });
    return;
  }
  // The projection's origin: the centre of the parcel's bounding box.
  const positions = rings.length > 0 ? rings.flat() : [point!];
  const lons = positions.map((p) => p[0]!);
  const lats = positions.map((p) => p[1]!);
  const lon0 = (Math.min(...lons) + Math.max(...lons)) / 2;
  const lat0 = (Math.min(...lats) + Math.max(...lats)) / 2;
  const kx = EARTH_RADIUS_M * RAD * Math.cos(lat0 * RAD);
  const ky = EARTH_RADIUS_M * RAD;
  const project = (lon: number, lat: number): Projected => ({ x: (lon - lon0) * kx, y: (lat - lat0) * ky });

  const parcelPoints = positions.map(([lon, lat]) => project(lon!, lat!));
  let minX = Math.min(...parcelPoints.map((p) => p.x));
  let maxX = Math.max(...parcelPoints.map((p) => p.x));
  let minY = Math.min(...parcelPoints.map((p) => p.y));
  let maxY = Math.max(...parcelPoints.map((p) => p.y));
  const parcelSpan = Math.max(maxX - minX, maxY - minY, MIN_SPAN_M);

  // Grid features near enough are drawn in place (the extent grows to hold them); others point off the map.
  const onMap: { feature: GridFeature; at: Projected }[] = [];
  const offMap: { feature: GridFeature; at: Projected }[] = [];
  for (const feature of map.grid) {
    const at = project(feature.lon, feature.lat);
    const span = Math.max(Math.max(maxX, at.x) - Math.min(minX, at.x), Math.max(maxY, at.y) - Math.min(minY, at.y));
    if (span <= parcelSpan * MAX_ZOOM_OUT) {
      onMap.push({ feature, at });
      minX = Math.min(minX, at.x);
      maxX = Math.max(maxX, at.x);
      minY = Math.min(minY, at.y);
      maxY = Math.max(maxY, at.y);
    } else offMap.push({ feature, at });
  }

  const pad = 34;
  const spanX = Math.max(maxX - minX, MIN_SPAN_M);
  const spanY = Math.max(maxY - minY, MIN_SPAN_M);
  const scale = Math.min((box.w - 2 * pad) / spanX, (box.h - 2 * pad) / spanY); // points per metre
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const midX = (minX + maxX) / 2;
  const midY = (minY + maxY) / 2;
  const toPage = (p: Projected) => ({ x: cx + (p.x - midX) * scale, y: cy - (p.y - midY) * scale });
  const centre = toPage(project(point?.[0] ?? lon0, point?.[1] ?? lat0));

  // What sits in the map's corners; an off-map arrow is moved along the edge until it is clear of them.
  const reserved: Box[] = [];

  doc.save();
  doc.rect(box.x, box.y, box.w, box.h).clip();

  // The base: county and state outlines crossing the map, under everything else.
  const unproject = (x: number, y: number) => ({ lon: lon0 + ((x - cx) / scale + midX) / kx, lat: lat0 + ((cy - y) / scale + midY) / ky });
  const northWest = unproject(box.x, box.y);
  const southEast = unproject(box.x + box.w, box.y + box.h);
  const base = outlines();
  const strokeOutlines = (list: Outline[], width: number, color: string) => {
    for (const outline of outlinesIn(list, northWest.lon, southEast.lat, southEast.lon, northWest.lat)) {
      doc.save();
      for (const ring of outline.rings) {
        ring.forEach(([lon, lat], index) => {
          const p = toPage(project(lon, lat));
          if (index === 0) doc.moveTo(p.x, p.y);
          else doc.lineTo(p.x, p.y);
        });
      }
      doc.lineWidth(width).strokeColor(color).stroke();
      doc.restore();
    }
  };
  strokeOutlines(base.counties, 0.8, COLORS.county);
  strokeOutlines(base.states, 1.6, COLORS.state);

  // Transmission lines as lines, along their course near the parcel.
  for (const feature of map.grid) {
    if (feature.kind !== 'transmission_line' || !feature.paths?.length) continue;
    doc.save();
    for (const path of feature.paths) {
      path.forEach(([lon, lat], index) => {
        const p = toPage(project(lon, lat));
        if (index === 0) doc.moveTo(p.x, p.y);
        else doc.lineTo(p.x, p.y);
      });
    }
    doc.lineWidth(2.6).lineCap('round').lineJoin('round').strokeColor(COLORS.transmission).stroke();
    doc.restore();
  }

  // Connectors next, so the parcel and markers sit on top.
  const keyEntries = [...onMap.map(({ feature }) => ({ feature, text: featureLabel(feature) })), ...offMap.map(({ feature }) => ({ feature, text: `${featureLabel(feature)} — off the map, arrow at the edge` }))];
  reserved.push(featureKeyBox(doc, keyEntries, box), scaleBarBox(box, scale), { x: box.x + box.w - 36, y: box.y + 4, w: 32, h: 40 }, locatorBox(box));
  const arrowTip = (at: Projected) => clearOf(edgePoint(centre, toPage(at), box, 14), box, reserved, 14);
  for (const { feature, at } of [...onMap, ...offMap]) {
    const target = onMap.some((entry) => entry.feature === feature) ? toPage(at) : arrowTip(at);
    doc.save();
    doc.moveTo(centre.x, centre.y).lineTo(target.x, target.y).dash(4, { space: 3 }).lineWidth(0.8).stroke(colorOf(feature));
    doc.restore();
  }

  if (rings.length > 0) {
    doc.save();
    for (const ring of rings) {
      ring.forEach(([lon, lat], index) => {
        const p = toPage(project(lon!, lat!));
        if (index === 0) doc.moveTo(p.x, p.y);
        else doc.lineTo(p.x, p.y);
      });
      doc.closePath();
    }
    doc.fillOpacity(0.5).lineWidth(1.5).fillAndStroke(COLORS.parcelFill, COLORS.parcelStroke, 'even-odd');
    doc.restore();
  } else {
    doc.save();
    doc.circle(centre.x, centre.y, 5).fillAndStroke(COLORS.parcelFill, COLORS.parcelStroke);
    doc.restore();
  }

  for (const { feature, at } of onMap) {
    const p = toPage(at);
    drawMarker(doc, feature, p.x, p.y);
  }
  for (const { feature, at } of offMap) drawArrowHead(doc, centre, arrowTip(at), colorOf(feature));
  doc.restore();

  // Named in a key in the corner rather than beside the markers, where a label would cover the parcel.
  drawFeatureKey(doc, keyEntries, box);
  drawLocator(doc, box, point ?? [lon0, lat0]);

  drawNorthArrow(doc, box.x + box.w - 24, box.y + 12);
  drawScaleBar(doc, box, scale);
  drawLegend(doc, map, box);
}

function colorOf(feature: GridFeature): string {
  return feature.kind === 'substation' ? COLORS.substation : COLORS.transmission;
}

export function featureLabel(feature: GridFeature): string {
  const what = feature.kind === 'substation' ? `Substation${feature.name ? ` ${feature.name}` : ''}` : 'Transmission line';
  const kv = typeof feature.voltageKv === 'number' ? `, ${Math.round(feature.voltageKv)} kV` : '';
  return `${what}${kv}: ${formatDistance(feature.distanceM)}`;
}

/** A substation is a square; a line's nearest point a ring on the line (the line itself is drawn along its course). */
function drawMarker(doc: Doc, feature: GridFeature, x: number, y: number): void {
  doc.save();
  if (feature.kind === 'substation') doc.rect(x - 4.5, y - 4.5, 9, 9).fillAndStroke(COLORS.substation, '#ffffff');
  else doc.circle(x, y, 3.5).lineWidth(1.4).fillAndStroke('#ffffff', COLORS.transmission);
  doc.restore();
}

/** The key's symbol: a square for a substation, a short stroke for a line. */
function drawKeySymbol(doc: Doc, feature: GridFeature, x: number, y: number): void {
  if (feature.kind === 'substation') return drawMarker(doc, feature, x, y);
  doc.save();
  doc.moveTo(x - 6, y).lineTo(x + 6, y).lineWidth(2.6).strokeColor(COLORS.transmission).stroke();
  doc.restore();
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * An arrow tip on the map's edge moved along that edge, the shortest way, until an arrow's head
 * there is clear of the corner boxes (key, scale bar, north arrow, locator).
 */
function clearOf(tip: { x: number; y: number }, box: Box, reserved: Box[], inset: number): { x: number; y: number } {
  const head = (p: { x: number; y: number }): Box => ({ x: p.x - 10, y: p.y - 10, w: 20, h: 20 });
  if (!reserved.some((r) => overlaps(head(tip), r))) return tip;
  const vertical = Math.abs(tip.x - (box.x + inset)) < 0.5 || Math.abs(tip.x - (box.x + box.w - inset)) < 0.5;
  const [low, high] = vertical ? [box.y + inset, box.y + box.h - inset] : [box.x + inset, box.x + box.w - inset];
  const at = vertical ? tip.y : tip.x;
  for (let step = 2; step < high - low; step += 2) {
    for (const candidate of [at - step, at + step]) {
      if (candidate < low || candidate > high) continue;
      const moved = vertical ? { x: tip.x, y: candidate } : { x: candidate, y: tip.y };
      if (!reserved.some((r) => overlaps(head(moved), r))) return moved;
    }
  }
  return tip;
}

/** Where the segment from `from` towards `to` leaves the box shrunk by `inset`. */
function edgePoint(from: { x: number; y: number }, to: { x: number; y: number }, box: Box, inset: number) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const left = box.x + inset;
  const right = box.x + box.w - inset;
  const top = box.y + inset;
  const bottom = box.y + box.h - inset;
  let t = Infinity;
  if (dx > 0) t = Math.min(t, (right - from.x) / dx);
  if (dx < 0) t = Math.min(t, (left - from.x) / dx);
  if (dy > 0) t = Math.min(t, (bottom - from.y) / dy);
  if (dy < 0) t = Math.min(t, (top - from.y) / dy);
  if (!Number.isFinite(t)) return from;
  return { x: from.x + dx * t, y: from.y + dy * t };
}

function drawArrowHead(doc: Doc, from: { x: number; y: number }, tip: { x: number; y: number }, color: string): void {
  const angle = Math.atan2(tip.y - from.y, tip.x - from.x);
  const size = 8;
  const a = angle + Math.PI - 0.45;
  const b = angle + Math.PI + 0.45;
  doc.save();
  doc.polygon([tip.x, tip.y], [tip.x + size * Math.cos(a), tip.y + size * Math.sin(a)], [tip.x + size * Math.cos(b), tip.y + size * Math.sin(b)]).fill(color);
  doc.restore();
}

const KEY_LINE = 11;

/** Where the feature key sits (top-left corner). */
function featureKeyBox(doc: Doc, entries: { text: string }[], box: Box): Box {
  if (entries.length === 0) return { x: box.x, y: box.y, w: 0, h: 0 };
  doc.font(FONT).fontSize(7.5);
  return { x: box.x + 8, y: box.y + 8, w: Math.max(...entries.map(({ text }) => doc.widthOfString(text))) + 22, h: entries.length * KEY_LINE + 6 };
}

/** The grid features, one line each with its symbol, on a white ground in the top-left corner. */
function drawFeatureKey(doc: Doc, entries: { feature: GridFeature; text: string }[], box: Box): void {
  if (entries.length === 0) return;
  const { x, y, w: width } = featureKeyBox(doc, entries, box);
  const lineHeight = KEY_LINE;
  doc.save();
  doc.rect(x, y, width, entries.length * lineHeight + 6).fillOpacity(0.9).fill('#ffffff');
  doc.restore();
  entries.forEach(({ feature, text }, index) => {
    const lineY = y + 3 + index * lineHeight;
    drawKeySymbol(doc, feature, x + 8, lineY + 4.5);
    doc.font(FONT).fontSize(7.5).fillColor(COLORS.text).text(text, x + 16, lineY, { lineBreak: false });
  });
}

function drawNorthArrow(doc: Doc, x: number, y: number): void {
  doc.save();
  doc.polygon([x, y], [x + 6, y + 18], [x, y + 14]).fill(COLORS.text);
  doc.polygon([x, y], [x - 6, y + 18], [x, y + 14]).lineWidth(0.8).stroke(COLORS.text);
  doc.restore();
  doc.font(FONT_BOLD).fontSize(9).fillColor(COLORS.text).text('N', x - 3.2, y + 20, { lineBreak: false });
}

/** Where the scale bar sits (bottom-left corner): its widest bar is at most a quarter of the map plus its label. */
function scaleBarBox(box: Box, pointsPerMetre: number): Box {
  return { x: box.x + 8, y: box.y + box.h - 34, w: scaleBars(box, pointsPerMetre).reduce((w, [bar]) => Math.max(w, bar), 0) + 52, h: 28 };
}

function scaleBars(box: Box, pointsPerMetre: number): [number, string][] {
  const target = (box.w / 4) / pointsPerMetre;
  const metres = niceLength(target);
  const feetTarget = target / 0.3048;
  const miles = feetTarget >= 5280 ? niceLength(feetTarget / 5280) : 0;
  const feet = miles > 0 ? miles * 5280 : niceLength(feetTarget);
  return [
    [metres * pointsPerMetre, metres >= 1000 ? `${metres / 1000} km` : `${metres} m`],
    [feet * 0.3048 * pointsPerMetre, miles > 0 ? `${miles} mi` : `${feet.toLocaleString('en-US')} ft`],
  ];
}

/** Two bars, metric above imperial, each a round length about a quarter of the map wide. */
function drawScaleBar(doc: Doc, box: Box, pointsPerMetre: number): void {
  const x = box.x + 12;
  const y = box.y + box.h - 30;
  const bars = scaleBars(box, pointsPerMetre);
  doc.save();
  doc.rect(x - 4, y - 4, Math.max(...bars.map(([w]) => w)) + 52, 28).fillOpacity(0.85).fill('#ffffff');
  doc.restore();
  bars.forEach(([width, text], index) => {
    const by = y + index * 12;
    doc.save();
    doc.rect(x, by + 2, width, 3).fill(COLORS.text);
    doc.moveTo(x, by).lineTo(x, by + 7).moveTo(x + width, by).lineTo(x + width, by + 7).lineWidth(0.8).stroke(COLORS.text);
    doc.restore();
    doc.font(FONT).fontSize(7.5).fillColor(COLORS.text).text(text, x + width + 5, by, { lineBreak: false });
  });
}

function drawLegend(doc: Doc, map: ParcelMap, box: Box): void {
  const text =
    map.gridLoaded.length === 0
      ? 'Grid layers (substations, transmission lines) are not loaded: none shown.'
      : map.grid.length === 0
        ? 'No substation or transmission line found in the loaded grid layers.'
        : 'Dashed: straight-line distance from the parcel point to the nearest point of each feature.';
  doc.font(FONT).fontSize(7.5).fillColor(COLORS.muted).text(text, box.x, box.y + box.h + 4, { width: box.w, align: 'left' });
}

const LOCATOR = { w: 118, h: 84 };

/** Where the locator sits (bottom-right corner). */
function locatorBox(box: Box): Box {
  return { x: box.x + box.w - LOCATOR.w - 8, y: box.y + box.h - LOCATOR.h - 8, w: LOCATOR.w, h: LOCATOR.h };
}

/**
 * A locator in the bottom-right corner: the state holding the parcel with its counties, the
 * parcel's county shaded and a dot where the parcel is, and the county and state named below.
 */
function drawLocator(doc: Doc, box: Box, [lon, lat]: [number, number]): void {
  const base = outlines();
  const state = outlineAt(base.states, lon, lat);
  if (!state) return;
  const county = outlineAt(base.counties, lon, lat);
  const frame = locatorBox(box);
  const [west, south, east, north] = state.bbox;
  const kx = Math.cos(((south + north) / 2) * RAD);
  const pad = 6;
  const labelHeight = 11;
  const scale = Math.min((frame.w - 2 * pad) / Math.max((east - west) * kx, 1e-6), (frame.h - 2 * pad - labelHeight) / Math.max(north - south, 1e-6));
  const ox = frame.x + (frame.w - (east - west) * kx * scale) / 2;
  const oy = frame.y + pad + (frame.h - 2 * pad - labelHeight - (north - south) * scale) / 2;
  const at = (x: number, y: number) => ({ x: ox + (x - west) * kx * scale, y: oy + (north - y) * scale });
  const trace = (outline: Outline) => {
    for (const ring of outline.rings)
      ring.forEach(([x, y], index) => {
        const p = at(x, y);
        if (index === 0) doc.moveTo(p.x, p.y);
        else doc.lineTo(p.x, p.y);
      });
  };
  doc.save();
  doc.rect(frame.x, frame.y, frame.w, frame.h).fillOpacity(0.92).fillAndStroke('#ffffff', COLORS.rule);
  doc.restore();
  doc.save();
  for (const other of base.counties.filter((c) => c.state === state.state)) trace(other);
  doc.lineWidth(0.25).strokeColor(COLORS.county).stroke();
  doc.restore();
  if (county) {
    doc.save();
    trace(county);
    doc.fillColor(COLORS.locatorCounty).fill('even-odd');
    doc.restore();
  }
  doc.save();
  trace(state);
  doc.lineWidth(0.9).strokeColor(COLORS.state).stroke();
  doc.restore();
  const dot = at(lon, lat);
  doc.save();
  doc.circle(dot.x, dot.y, 2.6).fillAndStroke(COLORS.parcelStroke, '#ffffff');
  doc.restore();
  const name = county ? `${county.name} County, ${state.name}` : state.name;
  doc.font(FONT).fontSize(6.5).fillColor(COLORS.text).text(name, frame.x + 3, frame.y + frame.h - labelHeight, { width: frame.w - 6, align: 'center', lineBreak: false, ellipsis: true });
}

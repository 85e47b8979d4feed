import type { GeoJSONSource, Map as MapLibre, MapGeoJSONFeature } from 'maplibre-gl';
import { apiHeaders } from '../api.js';
import { baseStyle, loadOutlines } from './base-style.js';
import type { MapView } from './saved-view.js';
import { lookOf, type SourceInfo } from './layer-styles.js';
import { scoreFill, verdictFill } from './verdict-colours.js';

/** A parcel as a tile feature carries it (D40). */
export interface TileParcel {
  parcel_key: string;
  verdict: 'PURSUE' | 'MONITOR' | 'HOLD';
  score: number;
}

export type ColourMode = 'verdict' | 'score';

/** Below this zoom a whole market is too many parcels to draw: the map asks to zoom in. */
export const PARCEL_MIN_ZOOM = 10;

const PARCELS = 'parcels';
const NO_PARCEL = '\u0000';

/**
 * The market map: the base outlines, the parcels of a market ranked against a buy box (vector
 * tiles of our own server) coloured by verdict or shaded by score, the loaded layers, the hovered
 * and selected parcel, and a measured line to the nearest substation.
 */
export class MarketMap {
  readonly map: MapLibre;
  readonly loaded: Promise<void>;
  private parcelKeys: { market: string; buyBox: string } | undefined;
  private mode: ColourMode = 'verdict';

  private constructor(
    map: MapLibre,
    private readonly basemapStyleUrl: string | null,
  ) {
    this.map = map;
    // The style, not every tile of it: the parcels and overlays are added as soon as they can be,
    // and their tiles load beside the base's (waiting for "load" held the parcels' first request
    // until MapLibre's worker had indexed the outlines).
    this.loaded = new Promise((resolve) => (map.isStyleLoaded() ? resolve() : map.once('style.load', () => resolve())));
  }

  /**
   * The map in `container`, resolved once it has its style. `view`: where it opens (a view kept
   * for the buy box), else over Texas until the ranking frames it. The default base's outlines
   * are not in the first style: loadBase() adds them.
   */
  static async create(container: HTMLElement, basemapStyleUrl: string | null, view?: MapView): Promise<MarketMap> {
    // MapLibre is loaded when a map is made (the page preloads it), not before the console runs:
    // signing in and the first requests need none of it.
    const { Map: MapLibreMap, NavigationControl, ScaleControl } = await import('maplibre-gl');
    const map = new MapLibreMap({
      container,
      style: baseStyle(basemapStyleUrl),
      center: view?.center ?? [-98.5, 31.2],
      zoom: view?.zoom ?? 5,
      attributionControl: false,
      // Screenshots of the canvas (tests, a user's "save image") need its last frame kept.
      canvasContextAttributes: { preserveDrawingBuffer: true },
      transformRequest: (url) => (url.startsWith(`${location.origin}/v1/`) ? { url, headers: apiHeaders('GET'), credentials: 'same-origin' } : { url }),
    });
    map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    map.addControl(new ScaleControl({ unit: 'imperial' }), 'bottom-left');
    map.getCanvas().setAttribute('aria-label', 'Market map');
    const marketMap = new MarketMap(map, basemapStyleUrl);
    await marketMap.loaded;
    marketMap.addOverlays();
    return marketMap;
  }

  /**
   * The default base's state and county outlines, drawn once fetched and meshed (nothing with
   * BASEMAP_STYLE_URL). Called after the parcels are added: meshing holds the page's thread for a
   * while, and the outlines' GeoJSON goes to MapLibre's worker after the parcel tiles' requests.
   */
  loadBase(): void {
    if (this.basemapStyleUrl) return;
    void loadOutlines(this.map).catch(() => undefined);
  }

  /** The parcels of `market` ranked against `buyBox`; a new buy box (or a changed one) reloads the tiles. */
  showParcels(market: string, buyBox: string, mode: ColourMode): void {
    this.removeParcels();
    this.parcelKeys = { market, buyBox };
    this.map.addSource(PARCELS, {
      type: 'vector',
      tiles: [`${location.origin}/v1/tiles/parcels/${encodeURIComponent(market)}/{z}/{x}/{y}.mvt?buy_box=${encodeURIComponent(buyBox)}`],
      minzoom: PARCEL_MIN_ZOOM,
      maxzoom: 16,
    });
    const before = this.map.getLayer('distance-line') ? 'distance-line' : undefined;
    this.map.addLayer({ id: 'parcels-fill', type: 'fill', source: PARCELS, 'source-layer': PARCELS, paint: { 'fill-color': verdictFill, 'fill-opacity': 0.85 } }, before);
    this.map.addLayer({ id: 'parcels-line', type: 'line', source: PARCELS, 'source-layer': PARCELS, minzoom: 13, paint: { 'line-color': '#24292f', 'line-width': 0.4, 'line-opacity': 0.6 } }, before);
    this.map.addLayer({ id: 'parcels-hover', type: 'line', source: PARCELS, 'source-layer': PARCELS, filter: ['==', ['get', 'parcel_key'], NO_PARCEL], paint: { 'line-color': '#0969da', 'line-width': 2.5 } }, before);
    this.map.addLayer({ id: 'parcels-selected', type: 'line', source: PARCELS, 'source-layer': PARCELS, filter: ['==', ['get', 'parcel_key'], NO_PARCEL], paint: { 'line-color': '#0b1f3a', 'line-width': 3.5 } }, before);
    this.setColourMode(mode);
  }

  setColourMode(mode: ColourMode): void {
    this.mode = mode;
    if (this.map.getLayer('parcels-fill')) this.map.setPaintProperty('parcels-fill', 'fill-color', mode === 'verdict' ? verdictFill : scoreFill);
  }

  get colourMode(): ColourMode {
    return this.mode;
  }

  get showing() {
    return this.parcelKeys;
  }

  removeParcels(): void {
    for (const id of ['parcels-selected', 'parcels-hover', 'parcels-line', 'parcels-fill']) if (this.map.getLayer(id)) this.map.removeLayer(id);
    if (this.map.getSource(PARCELS)) this.map.removeSource(PARCELS);
    this.parcelKeys = undefined;
  }

  /** The layer sources with a current version, drawn below the parcels and hidden until toggled. */
  addSourceLayers(sources: readonly SourceInfo[]): { source: SourceInfo; look: ReturnType<typeof lookOf>; layerIds: string[] }[] {
    return sources
      .filter((source) => source.current_version && source.geometry !== 'grid')
      .map((source) => {
        const look = lookOf(source);
        const sourceId = `layer-${source.id}`;
        if (!this.map.getSource(sourceId)) {
          this.map.addSource(sourceId, {
            type: 'vector',
            // The version in the URL makes each tile immutable: the browser keeps it for good.
            tiles: [`${location.origin}/v1/tiles/layers/${source.id}/{z}/{x}/{y}.mvt?version=${source.current_version!.id}`],
            minzoom: 4,
            maxzoom: 14,
          });
        }
        const specs = look.layers(`layer-${source.id}`, sourceId);
        for (const spec of specs) {
          if (this.map.getLayer(spec.id)) continue;
          this.map.addLayer({ ...spec, layout: { visibility: 'none' } } as typeof spec, this.map.getLayer('parcels-fill') ? 'parcels-fill' : undefined);
        }
        return { source, look, layerIds: specs.map((spec) => spec.id) };
      });
  }

  setVisible(layerIds: readonly string[], visible: boolean): void {
    for (const id of layerIds) if (this.map.getLayer(id)) this.map.setLayoutProperty(id, 'visibility', visible ? 'visible' : 'none');
  }

  highlight(parcelKey: string | null): void {
    if (this.map.getLayer('parcels-hover')) this.map.setFilter('parcels-hover', ['==', ['get', 'parcel_key'], parcelKey ?? NO_PARCEL]);
  }

  select(parcelKey: string | null): void {
    if (this.map.getLayer('parcels-selected')) this.map.setFilter('parcels-selected', ['==', ['get', 'parcel_key'], parcelKey ?? NO_PARCEL]);
    if (parcelKey === null) this.drawDistance(null);
  }

  /** The parcels drawn in the view now (one per key: a parcel cut by tile edges comes in pieces). */
  renderedParcels(): TileParcel[] {
    if (!this.map.getLayer('parcels-fill')) return [];
    const seen = new Map<string, TileParcel>();
    for (const feature of this.map.queryRenderedFeatures({ layers: ['parcels-fill'] })) {
      const parcel = feature.properties as TileParcel;
      if (!seen.has(parcel.parcel_key)) seen.set(parcel.parcel_key, { parcel_key: parcel.parcel_key, verdict: parcel.verdict, score: Number(parcel.score) });
    }
    return [...seen.values()];
  }

  parcelAt(point: { x: number; y: number }): MapGeoJSONFeature | undefined {
    if (!this.map.getLayer('parcels-fill')) return undefined;
    return this.map.queryRenderedFeatures([point.x, point.y], { layers: ['parcels-fill'] })[0];
  }

  /** The substations drawn in the view (for the nearest one to a parcel). */
  substationsInView(): [number, number][] {
    if (!this.map.getSource('layer-hifld_substations')) return [];
    return this.map
      .querySourceFeatures('layer-hifld_substations', { sourceLayer: 'hifld_substations' })
      .map((feature) => (feature.geometry as GeoJSON.Point).coordinates as [number, number]);
  }

  /** A measured line from a parcel to a feature (the nearest substation), or none. */
  drawDistance(line: { from: [number, number]; to: [number, number] } | null): void {
    const data: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: line ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [line.from, line.to] } }] : [] };
    (this.map.getSource('distance') as GeoJSONSource | undefined)?.setData(data);
  }

  private addOverlays(): void {
    this.map.addSource('distance', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    this.map.addLayer({ id: 'distance-line', type: 'line', source: 'distance', paint: { 'line-color': '#5e3c99', 'line-width': 2.5, 'line-dasharray': [2, 1.5] } });
  }

  remove(): void {
    this.map.remove();
  }
}

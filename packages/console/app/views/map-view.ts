import { call } from '../api.js';
import { h, labelled, replace } from '../dom.js';
import { askEarly, takeEarly } from '../early.js';
import { MarketMap, PARCEL_MIN_ZOOM, type ColourMode } from '../map/market-map.js';
import { savedView, saveView } from '../map/saved-view.js';
import type { SourceInfo } from '../map/layer-styles.js';
import { SCORE_STOPS, VERDICT_COLOURS } from '../map/verdict-colours.js';
import type { ViewContext } from '../view-context.js';
import { exportButtons } from './downloads.js';
import { legend } from './legend.js';
import { parcelPanel } from './parcel-panel.js';
import { RankedList, rankingPage, type ListParcel } from './ranked-list.js';

interface BuyBox {
  name: string;
  spec: { markets: string[]; must: any[]; preferred: any[] };
}

const BOX_KEY = 'landscreen.buyBox';
/** The base outlines are added when the first view is drawn, and at the latest after this long. */
const BASE_AT_LATEST_MS = 3_000;
const EARLY_BOXES = 'buyboxes';
const EARLY_SOURCES = 'sources';
const earlyPageKey = (buyBox: string) => `ranking:${buyBox}`;

/**
 * What the map's first view needs, asked for as the page starts (beside GET /v1/me): the buy
 * boxes, the layer sources and the first ranking page of the buy box shown last.
 */
export function askFirstView(): void {
  askEarly(EARLY_BOXES, () => call('GET', '/v1/buyboxes'));
  askEarly(EARLY_SOURCES, () => call('GET', '/v1/meta/sources'));
  const stored = localStorage.getItem(BOX_KEY);
  if (stored) askEarly(earlyPageKey(stored), () => rankingPage(stored));
}

/**
 * The market map: pick a buy box (its market comes with it), see the market's parcels coloured by
 * verdict or shaded by score, the loaded layers with their legends, the ranked list beside it in
 * step with the map, and a parcel's evidence one click away.
 */
export function mapView(context: ViewContext) {
  const mapContainer = h('div', { class: 'map', attrs: { 'data-testid': 'map' } });
  const controls = h('aside', { class: 'controls', attrs: { 'aria-label': 'Map settings' } }, h('p', { text: 'Loading…' }));
  const side = h('div', { class: 'side' });
  const zoomHint = h('p', { class: 'zoom-hint', attrs: { role: 'status' } });
  const element = h('div', { class: 'map-view' }, controls, h('div', { class: 'map-wrap' }, mapContainer, zoomHint), side);
  let marketMap: MarketMap | undefined;
  let disposed = false;

  void (async () => {
    // The buy boxes, the layer sources and the last shown buy box's first ranking page were asked
    // for as the page started (askFirstView); MapLibre loads meanwhile, opened where the map was
    // left for that buy box, so its parcel tiles are asked for as soon as it has its style.
    const stored = localStorage.getItem(BOX_KEY) ?? undefined;
    const boxesAsked = takeEarly<BuyBox[]>(EARLY_BOXES) ?? call<BuyBox[]>('GET', '/v1/buyboxes');
    const sourcesAsked = takeEarly<{ sources: SourceInfo[] }>(EARLY_SOURCES) ?? call<{ sources: SourceInfo[] }>('GET', '/v1/meta/sources');
    let firstPage: Promise<any> | undefined = stored ? (takeEarly(earlyPageKey(stored)) ?? rankingPage(stored)) : undefined;
    firstPage?.catch(() => undefined); // the list reports it
    const creating = MarketMap.create(mapContainer, context.settings.basemapStyleUrl, stored ? savedView(context.me.tenant.slug, stored) : undefined);
    const boxes = await boxesAsked;
    let box: BuyBox | undefined = boxes.find((b) => b.name === stored) ?? boxes[0];
    if (box?.name !== stored) {
      firstPage = box ? rankingPage(box.name) : undefined;
      firstPage?.catch(() => undefined);
    }
    const [created, sources] = await Promise.all([creating, sourcesAsked]);
    marketMap = created;
    if (disposed) return marketMap.remove();
    const map = marketMap;
    // For scripts and tests driving the page: the map, and whether it has drawn everything it asked for.
    (window as unknown as { landscreen: unknown }).landscreen = { map: map.map };
    mapContainer.dataset.state = 'loading';
    map.map.on('dataloading', () => (mapContainer.dataset.state = 'loading'));
    map.map.on('idle', () => (mapContainer.dataset.state = 'idle'));
    const list = new RankedList(map);
    let selected: string | null = null;

    const showList = () => {
      selected = null;
      map.select(null);
      replace(side, list.element);
      list.refresh(true);
    };
    const select = async (parcelKey: string, fit?: number[] | null) => {
      if (!box) return;
      selected = parcelKey;
      map.select(parcelKey);
      if (fit && fit.length === 4) map.map.fitBounds([fit[0]!, fit[1]!, fit[2]!, fit[3]!], { maxZoom: 15, padding: 80, duration: 0 });
      replace(side, h('p', { class: 'loading', text: 'Reading the parcel…' }));
      try {
        const panel = await parcelPanel(context, map, box, parcelKey, showList);
        if (selected === parcelKey) replace(side, panel);
      } catch (error) {
        replace(side, h('p', { class: 'error', attrs: { role: 'alert' }, text: (error as Error).message }), h('button', { attrs: { type: 'button' }, text: 'Back to the list', on: { click: showList } }));
      }
    };
    list.onHover = (key) => map.highlight(key);
    list.onSelect = (parcel: ListParcel) => void select(parcel.parcel_key, parcel.bbox);

    // The map in step with the list: hover outlines and marks the row, a click opens the evidence.
    map.map.on('mousemove', 'parcels-fill', (event) => {
      const key = (event.features?.[0]?.properties as { parcel_key?: string } | undefined)?.parcel_key ?? null;
      map.highlight(key);
      list.markHovered(key);
      map.map.getCanvas().style.cursor = 'pointer';
    });
    map.map.on('mouseleave', 'parcels-fill', () => {
      map.highlight(null);
      list.markHovered(null);
      map.map.getCanvas().style.cursor = '';
    });
    map.map.on('click', 'parcels-fill', (event) => {
      const key = (event.features?.[0]?.properties as { parcel_key?: string } | undefined)?.parcel_key;
      if (key) void select(key);
    });
    const updateZoomHint = () => (zoomHint.textContent = map.map.getZoom() < PARCEL_MIN_ZOOM ? 'Zoom in to see the parcels.' : '');
    map.map.on('zoomend', updateZoomHint);
    updateZoomHint();

    const layers = map.addSourceLayers(sources.sources);
    const colourLegend = h('div', { class: 'legend-box' });
    const drawColourLegend = (mode: ColourMode) =>
      replace(
        colourLegend,
        mode === 'verdict'
          ? legend(Object.entries(VERDICT_COLOURS).map(([label, colour]) => ({ label, colour, shape: 'area' as const })))
          : h('div', { class: 'gradient' }, h('span', { class: 'gradient-bar', attrs: { style: `background: linear-gradient(to right, ${SCORE_STOPS.map(([, c]) => c).join(', ')})` } }), h('span', { class: 'gradient-labels' }, h('span', { text: 'score 0' }), h('span', { text: '100' }))),
      );
    const modeRadios = (['verdict', 'score'] as const).map((mode) =>
      h('label', { class: 'check' }, h('input', { attrs: { type: 'radio', name: 'colour', value: mode, checked: mode === 'verdict' }, on: { change: () => { map.setColourMode(mode); drawColourLegend(mode); } } }), mode === 'verdict' ? ' By verdict' : ' Shaded by score'),
    );
    drawColourLegend('verdict');

    const boxSelect = h('select', { attrs: { name: 'buy-box' } }, boxes.map((b) => h('option', { attrs: { value: b.name, selected: b.name === box?.name }, text: b.name })));
    const marketLine = h('p', { class: 'market-line' });
    const exportStatus = h('p', { class: 'notice', attrs: { role: 'status' } });
    const showBox = async () => {
      if (!box) return;
      const shown = box;
      localStorage.setItem(BOX_KEY, shown.name);
      const market = shown.spec.markets[0]!;
      marketLine.textContent = `Market: ${market}`;
      const view = savedView(context.me.tenant.slug, shown.name);
      if (view) map.map.jumpTo(view);
      map.showParcels(market, shown.name, map.colourMode);
      showList();
      const asked = firstPage;
      firstPage = undefined;
      const page = await list.show(shown.name, asked);
      // Without a kept view, frame the market's best parcels (the ranking's first page).
      const boxes4 = (page?.results ?? []).map((r: any) => r.bbox as number[] | null).filter((b: number[] | null): b is number[] => Array.isArray(b) && b.length === 4);
      if (!view && boxes4.length > 0 && box === shown) {
        const west = Math.min(...boxes4.map((b: number[]) => b[0]!));
        const south = Math.min(...boxes4.map((b: number[]) => b[1]!));
        const east = Math.max(...boxes4.map((b: number[]) => b[2]!));
        const north = Math.max(...boxes4.map((b: number[]) => b[3]!));
        map.map.fitBounds([west, south, east, north], { padding: 40, maxZoom: 15, duration: 0 });
        if (map.map.getZoom() < PARCEL_MIN_ZOOM) map.map.setZoom(PARCEL_MIN_ZOOM);
      }
    };
    // Where the map is left is where it opens next time for this buy box.
    map.map.on('moveend', () => {
      if (box && map.showing?.buyBox === box.name) saveView(context.me.tenant.slug, box.name, { center: map.map.getCenter().toArray() as [number, number], zoom: map.map.getZoom() });
    });
    boxSelect.addEventListener('change', () => {
      box = boxes.find((b) => b.name === boxSelect.value);
      void showBox();
    });

    replace(
      controls,
      boxes.length === 0
        ? h('p', {}, 'No buy box yet. ', h('a', { attrs: { href: '#/buyboxes' }, text: 'Write one' }), ' to rank a market.')
        : labelled('Buy box', boxSelect),
      marketLine,
      h('fieldset', {}, h('legend', { text: 'Colour' }), modeRadios, colourLegend),
      h(
        'fieldset',
        {},
        h('legend', { text: 'Layers' }),
        layers.length === 0 ? h('p', { class: 'hint', text: 'No layer is loaded yet (landscreen import layer).' }) : null,
        layers.map(({ source, look, layerIds }) => {
          const on = source.id === 'hifld_substations';
          map.setVisible(layerIds, on);
          return h(
            'div',
            { class: 'layer-toggle' },
            h('label', { class: 'check' }, h('input', { attrs: { type: 'checkbox', checked: on, 'data-source': source.id }, on: { change: (event) => map.setVisible(layerIds, (event.target as HTMLInputElement).checked) } }), ` ${look.title}`),
            legend(look.legend),
          );
        }),
      ),
      exportButtons(
        'Export the ranking',
        (format) => ({ method: 'POST', path: `/v2/discovery/export?format=${format}`, body: { buy_box: box?.name }, fileName: `${box?.name ?? 'ranking'}.${format}` }),
        exportStatus,
      ),
      exportStatus,
    );
    replace(side, list.element);
    const shown = box ? showBox() : Promise.resolve();
    // The base outlines once the first view is drawn (or after a few seconds at most): MapLibre's
    // one worker cuts their GeoJSON into tiles, which held the parcel tiles behind it.
    let baseLoaded = false;
    const loadBase = () => {
      if (baseLoaded || disposed) return;
      baseLoaded = true;
      map.loadBase();
    };
    map.map.once('idle', loadBase);
    setTimeout(loadBase, BASE_AT_LATEST_MS);
    await shown;
  })().catch((error) => replace(controls, h('p', { class: 'error', attrs: { role: 'alert' }, text: `The map could not load: ${(error as Error).message}` })));

  return {
    element,
    dispose: () => {
      disposed = true;
      marketMap?.remove();
    },
  };
}

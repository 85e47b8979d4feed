import { call } from '../api.js';
import { debounce, h, labelled } from '../dom.js';
import { formatNumber } from '../format.js';
import type { MarketMap, TileParcel } from '../map/market-map.js';
import { scoreText, verdictBadge } from './badges.js';
import { VirtualList } from './virtual-list.js';

/** A row of the list: a ranked parcel (a query's result) or a parcel drawn in view (a tile's). */
export interface ListParcel extends TileParcel {
  apn?: string | null;
  address?: string | null;
  acres?: number | null;
  bbox?: number[] | null;
}

const PAGE = 200;
const ROW_HEIGHT = 44;

const SORTS: Record<string, { label: string; compare: (a: ListParcel, b: ListParcel) => number }> = {
  best: { label: 'Score, best first', compare: (a, b) => b.score - a.score || a.parcel_key.localeCompare(b.parcel_key) },
  worst: { label: 'Score, lowest first', compare: (a, b) => a.score - b.score || a.parcel_key.localeCompare(b.parcel_key) },
  acres: { label: 'Acres, largest first', compare: (a, b) => (b.acres ?? -1) - (a.acres ?? -1) || b.score - a.score },
  key: { label: 'Parcel key', compare: (a, b) => a.parcel_key.localeCompare(b.parcel_key) },
};

/**
 * A page of a buy box's ranking (the first without a cursor). The list shows no facts, so it asks
 * for one (D40's `fields`; at least one is named): a page of 200 is then a sixth of its size.
 */
export function rankingPage(buyBox: string, cursor?: string): Promise<any> {
  return call('POST', '/v2/discovery/query', { buy_box: buyBox, limit: PAGE, fields: ['acres'], ...(cursor ? { cursor } : {}) });
}

/**
 * The ranked parcels beside the map, kept in step with it: the whole ranking page by page as you
 * scroll (discovery's order), or only what the map draws in view; hovering a row outlines its
 * parcel, hovering a parcel marks its row, a click selects.
 */
export class RankedList {
  readonly element: HTMLElement;
  private readonly list: VirtualList<ListParcel>;
  private readonly summary = h('p', { class: 'list-summary', attrs: { role: 'status' } });
  private readonly inViewBox = h('input', { attrs: { type: 'checkbox' } });
  private readonly sortSelect = h('select', {}, Object.entries(SORTS).map(([value, sort]) => h('option', { attrs: { value }, text: sort.label })));
  private ranked: ListParcel[] = [];
  private cursor: string | null | undefined;
  /** The page being read, shared by whoever asks meanwhile. */
  private inflight: Promise<{ results: any[] } | undefined> | undefined;
  private buyBox: string | undefined;
  private eligibleTotal = 0;
  private rows: ListParcel[] = [];
  /** The rows the list holds now, as keys: what refresh compares before redrawing. */
  private shown = '';
  private hovered: string | null = null;
  onHover: (parcelKey: string | null) => void = () => undefined;
  onSelect: (parcel: ListParcel) => void = () => undefined;
  /** The query_hash of the ranking the list shows (promotion needs it). */
  queryHash: string | undefined;

  constructor(private readonly map: MarketMap) {
    this.list = new VirtualList('Ranked parcels', ROW_HEIGHT, (parcel) => this.row(parcel));
    this.list.onNearEnd(() => void this.loadMore());
    this.inViewBox.addEventListener('change', () => this.refresh());
    this.sortSelect.addEventListener('change', () => this.refresh());
    const refreshInView = debounce(() => this.inViewBox.checked && this.refresh(true), 150);
    map.map.on('idle', refreshInView);
    this.element = h(
      'section',
      { class: 'ranked', attrs: { 'aria-label': 'Ranked list' } },
      h('div', { class: 'list-controls' }, labelled('Sort', this.sortSelect), h('label', { class: 'check' }, this.inViewBox, ' Only what is in view')),
      this.summary,
      this.list.element,
    );
  }

  /**
   * Starts over with a buy box's ranking; `firstPage` is its first page already asked for
   * (rankingPage), so that it travels while the map loads.
   */
  async show(buyBox: string, firstPage?: Promise<any>): Promise<{ results: any[] } | undefined> {
    this.buyBox = buyBox;
    this.ranked = [];
    this.cursor = undefined;
    this.inflight = undefined;
    const first = this.loadMore(firstPage);
    this.refresh();
    return first;
  }

  get length(): number {
    return this.rows.length;
  }

  private loadMore(asked?: Promise<any>): Promise<{ results: any[] } | undefined> {
    if (this.inflight) return this.inflight;
    if (this.cursor === null || !this.buyBox || this.inViewBox.checked) return Promise.resolve(undefined);
    const buyBox = this.buyBox;
    this.inflight = (async () => {
      try {
        const page = await (asked ?? rankingPage(buyBox, this.cursor ?? undefined));
        if (buyBox !== this.buyBox) return undefined;
        this.queryHash = page.query_hash;
        this.eligibleTotal = page.eligible_total;
        this.cursor = page.next_cursor;
        this.ranked.push(
          ...page.results.map((result: any): ListParcel => ({
            parcel_key: result.parcel_key,
            verdict: result.verdict,
            score: result.score,
            apn: result.apn,
            address: result.address,
            acres: result.acres,
            bbox: result.bbox,
          })),
        );
        this.refresh(true);
        return page;
      } catch (error) {
        this.summary.textContent = error instanceof Error ? error.message : 'The ranking could not be read.';
        return undefined;
      } finally {
        this.inflight = undefined;
      }
    })();
    return this.inflight;
  }

  /** Redraws the rows: the ranking, or the parcels in view, sorted as chosen. */
  refresh(keepScroll = false): void {
    const sort = SORTS[this.sortSelect.value]!;
    if (this.inViewBox.checked) {
      this.rows = this.map.renderedParcels().sort(sort.compare);
      this.summary.textContent = `${formatNumber(this.rows.length)} eligible parcels in view`;
    } else {
      this.rows = this.sortSelect.value === 'best' ? this.ranked : [...this.ranked].sort(sort.compare);
      const more = this.cursor === null ? '' : ' (more load as you scroll)';
      this.summary.textContent = `${formatNumber(this.eligibleTotal)} eligible parcels; ${formatNumber(this.ranked.length)} listed${more}`;
    }
    // The map goes idle after every repaint (a hover's highlight included): rows that did not
    // change stay the same elements, so a row under the pointer is not replaced under it.
    const shown = this.rows.map((row) => `${row.parcel_key}:${row.verdict}:${row.score}`).join('|');
    if (keepScroll && shown === this.shown) return;
    this.shown = shown;
    this.list.setItems(this.rows, keepScroll);
  }

  /** Marks the row of a parcel hovered on the map. */
  markHovered(parcelKey: string | null): void {
    this.hovered = parcelKey;
    for (const row of this.list.element.querySelectorAll('.row.hovered')) row.classList.remove('hovered');
    if (parcelKey === null) return;
    const index = this.rows.findIndex((row) => row.parcel_key === parcelKey);
    if (index >= 0) this.list.rowAt(index)?.classList.add('hovered');
  }

  private row(parcel: ListParcel): HTMLElement {
    const title = parcel.apn ? `APN ${parcel.apn}` : parcel.parcel_key;
    const row = h(
      'button',
      {
        class: `row${parcel.parcel_key === this.hovered ? ' hovered' : ''}`,
        attrs: { type: 'button', 'data-parcel-key': parcel.parcel_key },
        on: {
          mouseenter: () => this.onHover(parcel.parcel_key),
          mouseleave: () => this.onHover(null),
          focus: () => this.onHover(parcel.parcel_key),
          click: () => this.onSelect(parcel),
        },
      },
      verdictBadge(parcel.verdict),
      h('span', { class: 'row-main' }, h('span', { class: 'row-title', text: title }), h('span', { class: 'row-sub', text: [parcel.address, parcel.acres != null ? `${formatNumber(parcel.acres)} acres` : null].filter(Boolean).join(' · ') })),
      scoreText(parcel.score),
    );
    return row;
  }
}

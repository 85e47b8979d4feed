// Where the map was left, per tenant and buy box, kept in the browser: a returning user's map opens
// there at once, so its parcel tiles are asked for as soon as MapLibre has its style, instead of
// after the ranking's first page has said where the best parcels are.

export interface MapView {
  center: [number, number];
  zoom: number;
}

const PREFIX = 'landscreen.view';
const keyOf = (tenant: string, buyBox: string) => `${PREFIX}.${encodeURIComponent(tenant)}.${encodeURIComponent(buyBox)}`;

const isView = (value: any): value is MapView =>
  Array.isArray(value?.center) &&
  value.center.length === 2 &&
  value.center.every((n: unknown) => typeof n === 'number' && Number.isFinite(n)) &&
  Math.abs(value.center[0]) <= 180 &&
  Math.abs(value.center[1]) <= 90 &&
  typeof value.zoom === 'number' &&
  value.zoom >= 0 &&
  value.zoom <= 24;

/** The view kept for the buy box, or undefined (none yet, or unreadable). */
export function savedView(tenant: string, buyBox: string): MapView | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(keyOf(tenant, buyBox)) ?? 'null');
    return isView(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function saveView(tenant: string, buyBox: string, view: MapView): void {
  try {
    localStorage.setItem(keyOf(tenant, buyBox), JSON.stringify({ center: view.center.map((n) => Math.round(n * 1e6) / 1e6), zoom: Math.round(view.zoom * 100) / 100 }));
  } catch {
    // Storage full or refused: the next visit frames the ranking instead.
  }
}

/** Forgets every kept view (signing out). */
export function forgetViews(): void {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key?.startsWith(`${PREFIX}.`)) localStorage.removeItem(key);
  }
}

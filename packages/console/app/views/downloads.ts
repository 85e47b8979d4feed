import { ApiFailure, describe, send } from '../api.js';
import { h } from '../dom.js';

/** The export formats of D40, as another branch adds them to the resources' URLs (`format=`). */
export const EXPORT_FORMATS = [
  { format: 'geojson', label: 'GeoJSON' },
  { format: 'kml', label: 'KML' },
  { format: 'csv', label: 'CSV' },
  { format: 'shapefile', label: 'Shapefile (zip)' },
  { format: 'gpkg', label: 'GeoPackage' },
] as const;

/** Fetches a file the API answers (the session cookie and CSRF header ride along) and saves it. */
export async function download(method: string, path: string, fileName: string, body?: unknown): Promise<void> {
  const response = await send(method, path, body);
  if (!response.ok) {
    const text = await response.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    throw new ApiFailure(response.status, parsed?.code ?? 'error', describe(parsed) ?? `${response.status} ${response.statusText}`, parsed);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const named = /filename="([^"]+)"/.exec(disposition)?.[1];
  const url = URL.createObjectURL(await response.blob());
  const link = h('a', { attrs: { href: url, download: named ?? fileName } });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A row of export buttons; `request(format)` names the URL (and body) of each. */
export function exportButtons(title: string, request: (format: string) => { method: string; path: string; body?: unknown; fileName: string }, status: HTMLElement): HTMLElement {
  return h(
    'div',
    { class: 'exports', attrs: { role: 'group', 'aria-label': title } },
    h('span', { class: 'exports-title', text: title }),
    EXPORT_FORMATS.map(({ format, label }) =>
      h('button', {
        class: 'small',
        attrs: { type: 'button' },
        text: label,
        on: {
          click: async () => {
            const { method, path, body, fileName } = request(format);
            status.textContent = `Exporting ${label}…`;
            try {
              await download(method, path, fileName, body);
              status.textContent = `${label} saved.`;
            } catch (error) {
              status.textContent = error instanceof Error ? `Export failed: ${error.message}` : 'Export failed.';
            }
          },
        },
      }),
    ),
  );
}

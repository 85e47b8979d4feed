import { MAPLIBRE_URL } from './bundle.js';

export interface ConsoleSettings {
  /** A MapLibre style URL drawn under the map (BASEMAP_STYLE_URL); absent: the outlines we serve. */
  basemapStyleUrl?: string;
}

/**
 * The base outlines the map draws first (map/base-style.ts fetches them): asked for while the
 * scripts load, not after. Its mode and credentials are fetch()'s defaults, so the fetch reuses it.
 */
const OUTLINES_PRELOAD = '\n<link rel="preload" href="/console/counties-10m.json" as="fetch" crossorigin="anonymous">';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The console's one page (the app routes by the URL's hash); its settings ride in a meta tag. */
export function consolePage(settings: ConsoleSettings): string {
  const json = JSON.stringify({ basemapStyleUrl: settings.basemapStyleUrl ?? null });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="landscreen-settings" content="${escapeAttribute(json)}">
<title>landscreen</title>
<link rel="modulepreload" href="${MAPLIBRE_URL}">${settings.basemapStyleUrl ? '' : OUTLINES_PRELOAD}
<link rel="stylesheet" href="/console/maplibre-gl.css">
<link rel="stylesheet" href="/console/app.css">
</head>
<body>
<div id="app"><p class="boot">Loading landscreen…</p></div>
<script type="module" src="/console/app.js"></script>
</body>
</html>
`;
}

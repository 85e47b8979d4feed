import path from 'node:path';
import { build, type Plugin } from 'esbuild';

/** The URL the page loads MapLibre's ESM build from (served beside its worker). */
export const MAPLIBRE_URL = '/console/maplibre-gl.mjs';

/** `maplibre-gl` stays a separate module the browser loads from MAPLIBRE_URL (its worker sits beside it). */
const maplibreExternal: Plugin = {
  name: 'maplibre-external',
  setup(context) {
    context.onResolve({ filter: /^maplibre-gl$/ }, () => ({ path: MAPLIBRE_URL, external: true }));
  },
};

export interface Bundle {
  js: Uint8Array;
  /** Milliseconds esbuild took. */
  ms: number;
}

/**
 * The console's own code as one ES module, minified, built in memory by esbuild from its
 * TypeScript (about 0.1 s; docs/decisions.md, "The web console"). MapLibre is not in it.
 */
export async function bundleApp(appDir: string): Promise<Bundle> {
  const started = performance.now();
  const result = await build({
    entryPoints: [path.join(appDir, 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome115', 'firefox115', 'safari16'],
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [maplibreExternal],
  });
  return { js: result.outputFiles[0]!.contents, ms: performance.now() - started };
}

// The console in a real browser (D40): Debian's Chromium through playwright-core, WebGL through
// SwiftShader, against the whole product on PGlite (the embedded default) with a small synthetic
// market. A person signs in through the emailed link, sees a PURSUE parcel in its colour where it
// lies (read back from the screen's pixels, not the DOM), opens its evidence with a click,
// promotes it and drags its card on the board (checked over REST); a viewer has no Promote
// button and the server refuses the promotion anyway; axe-core finds nothing serious or critical
// on any page. Screenshots of each page are written to test-artifacts/console/.

import { readFile } from 'node:fs/promises';
import { kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import * as shapefile from 'shapefile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { importLayer } from '../../services/catalog/src/layers/import-layer.js';
import { catalogDb } from '../../services/catalog/src/schema.js';
import { layerFiles, pointCollection, type LayerFiles } from '../../services/catalog/src/testing/layer-files.js';
import { launchChromium, pixelAt, screenshot, seriousViolations } from '../support/browser.js';
import { expectStatus, session } from '../support/diligence.js';
import { mailedLink } from '../support/mailbox.js';
import { unzip } from '../support/unzip.js';

const TENANT = 'acme-console';
const ANALYST = 'ann@acme-console.test';
const VIEWER = 'vic@acme-console.test';
const MARKET = 'console-tx';

/** An 8 x 8 grid of square parcels of 0.004° (about 40 acres) whose verdict follows (i + j) mod 3. */
const SIZE = 0.004;
const GAP = 0.0006;
const WEST = -97.62;
const SOUTH = 30.38;
const cell = (i: number, j: number) => {
  const lon = WEST + i * (SIZE + GAP);
  const lat = SOUTH + j * (SIZE + GAP);
  return { lon, lat, geometry: { type: 'Polygon' as const, coordinates: [[[lon, lat], [lon + SIZE, lat], [lon + SIZE, lat + SIZE], [lon, lat + SIZE], [lon, lat]]] } };
};
const KIND = ['pursue', 'monitor', 'hold'] as const;
const PARCELS = Array.from({ length: 64 }, (_, n) => {
  const i = n % 8;
  const j = Math.floor(n / 8);
  const kind = KIND[(i + j) % 3]!;
  const { geometry } = cell(i, j);
  return {
    geometry,
    properties: {
      parcel_key: `c-${i}-${j}`,
      apn: `APN-${i}${j}`,
      address: `${100 + n} Ranch Road`,
      // The last column is too small for the buy box: not eligible, never drawn.
      acres: i === 7 ? 10 : 40,
      zoning: 'AG',
      nearest_substation_distance_m: kind === 'pursue' ? 600 : 5200,
      slope_degrees: kind === 'hold' ? 9 : 2,
    },
  };
});
/** The parcel the test looks at: a PURSUE parcel inside the grid, and a HOLD one beside it. */
const PURSUE = { key: 'c-3-3', ...cell(3, 3) };
const HOLD = { key: 'c-4-4', ...cell(4, 4) };
const centre = (c: { lon: number; lat: number }): [number, number] => [c.lon + SIZE / 2, c.lat + SIZE / 2];

const SPEC = {
  markets: [MARKET],
  must: [{ field: 'acres', op: 'gte', value: 20 }],
  preferred: [
    { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 2 },
    { field: 'slope_degrees', op: 'lte', value: 5, weight: 1 },
  ],
  verdict_cutoffs: { pursue: 60, monitor: 30 },
};

const isGreen = ([r, g, b]: [number, number, number]) => g > r + 40 && g > b + 30;
const isGrey = ([r, g, b]: [number, number, number]) => Math.abs(r - g) < 25 && Math.abs(g - b) < 25 && r < 200;

// Browsers on a shared two-core machine are slow to start and draw: every wait is on readiness,
// with room for a loaded machine.
describe('the console in Chromium', { timeout: 120_000 }, () => {
  let app: TestStack;
  let files: LayerFiles;
  let browser: Browser;
  let analyst: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startTestStack('pglite');
    files = await layerFiles();
    expectStatus(await app.get('/v1/me', { headers: session(ANALYST, TENANT, 'analyst') }), 200);
    expectStatus(await app.get('/v1/me', { headers: session(VIEWER, TENANT, 'viewer') }), 200);
    const db = app.stack.database.db;
    await loadMarket(db, MARKET, PARCELS);
    await entitleTenant(db, TENANT, MARKET);
    const [sx, sy] = centre(cell(2, 5));
    await importLayer(catalogDb(db), {
      source: 'hifld_substations',
      file: await files.write('subs.geojson', pointCollection([{ lon: sx, lat: sy, properties: { name: 'Onion Creek', max_voltage_kv: 138, status: 'IN SERVICE' } }])),
    });
    expectStatus(await app.post('/v1/buyboxes', { name: 'dc', spec: SPEC }, { headers: session(ANALYST, TENANT) }), 201);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await files?.remove();
  });

  /** Signs a person in the way they do: the sign-in page, the mailbox's link, the console. */
  async function signIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    // The page's own errors go to the test's output: a failure shows why.
    page.on('pageerror', (error) => process.stderr.write(`[${email}] page error: ${error.message}\n`));
    page.on('console', (message) => message.type() === 'error' && process.stderr.write(`[${email}] console: ${message.text()}\n`));
    await page.goto(`${app.url}/`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText(`If ${email} is a member`).waitFor();
    const link = await mailedLink(app.config.dataDir, email);
    expect(link.startsWith(`${app.config.publicUrl}/auth/verify?token=`)).toBe(true);
    // The link points at PUBLIC_URL; the test's server listens on a port of its own.
    await page.goto(link.replace(app.config.publicUrl, app.url));
    await page.locator('header .who', { hasText: email }).waitFor();
    return { context, page };
  }

  /** Waits until the map has drawn the parcels of the view with every tile loaded. */
  async function mapDrawn(page: Page): Promise<void> {
    await page
      .waitForFunction(() => {
      const map = (globalThis as any).landscreen?.map;
        return !!map && map.loaded() && map.areTilesLoaded() && map.queryRenderedFeatures({ layers: ['parcels-fill'] }).length > 0;
      }, undefined, { timeout: 60_000 })
      .catch(async (error) => {
        await screenshot(page, 'map-not-drawn');
        throw error;
      });
  }

  /** Where a point lies on the page, through the map's own projection. */
  async function onScreen(page: Page, lonLat: [number, number]): Promise<{ x: number; y: number }> {
    return page.evaluate((point) => {
      const map = (globalThis as any).landscreen.map;
      const rect = map.getCanvas().getBoundingClientRect();
      const at = map.project(point);
      return { x: rect.left + at.x, y: rect.top + at.y };
    }, lonLat);
  }

  it('shows the sign-in page, and signs in through the emailed link into the map with an HttpOnly SameSite session cookie', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    const signInPage = await context.newPage();
    await signInPage.goto(`${app.url}/`);
    await signInPage.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(signInPage, 'sign-in');
    expect(await seriousViolations(signInPage)).toEqual([]);
    await context.close();

    ({ context: analyst, page } = await signIn(ANALYST));
    expect(new URL(page.url()).hash).toBe('#/map');
    const cookie = (await analyst.cookies()).find((c) => c.name === 'landscreen_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('draws a PURSUE parcel in its colour where it lies, and a HOLD parcel in grey', async () => {
    await mapDrawn(page);
    const pursue = await onScreen(page, centre(PURSUE));
    const hold = await onScreen(page, centre(HOLD));
    const png = await screenshot(page, 'map');
    expect(pixelAt(png, pursue.x, pursue.y), `pixel at ${JSON.stringify(pursue)}`).toSatisfy(isGreen);
    expect(pixelAt(png, hold.x, hold.y), `pixel at ${JSON.stringify(hold)}`).toSatisfy(isGrey);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('lists the ranking beside the map, and a click on the parcel opens its evidence', async () => {
    await page.locator('.list-summary', { hasText: '56 eligible parcels' }).waitFor();
    const pursue = await onScreen(page, centre(PURSUE));
    await page.mouse.click(pursue.x, pursue.y);
    const panel = page.locator('.parcel-panel');
    await panel.getByRole('heading', { name: 'APN APN-33' }).waitFor();
    await expect(panel.locator('.badge').first().textContent()).resolves.toBe('PURSUE');
    // Every rule's evidence, with labels and units: acres passes, both preferences pass.
    const rules = await panel.locator('table.evidence tbody tr').allTextContents();
    expect(rules).toEqual([
      expect.stringMatching(/^Acres ≥ 20 acres40 acrespass$/),
      expect.stringMatching(/^Nearest substation distance ≤ 3 km600 mpass/),
      expect.stringMatching(/^Slope ≤ 5°2°pass/),
    ]);
    await panel.getByText('Nearest substation drawn').waitFor();
    await screenshot(page, 'parcel-panel');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('promotes the parcel, and a drag moves its card between stages (checked over REST)', async () => {
    await page.getByRole('button', { name: 'Promote to the board' }).click();
    await page.getByText('Promoted: the card is on the board').waitFor();
    await page.getByRole('link', { name: 'Site report (PDF)' }).waitFor();
    await page.goto(`${app.url}/#/board`);
    const card = page.locator(`.card-item[data-parcel-key="${PURSUE.key}"]`);
    await page.locator(`section.column[data-stage="new"] .card-item[data-parcel-key="${PURSUE.key}"]`).waitFor();
    await screenshot(page, 'board');
    expect(await seriousViolations(page)).toEqual([]);

    await card.dragTo(page.locator('section.column[data-stage="researching"]'));
    await page.locator(`section.column[data-stage="researching"] .card-item[data-parcel-key="${PURSUE.key}"]`).waitFor();
    const board = expectStatus(await app.get('/v1/pipeline', { headers: session(ANALYST, TENANT) }), 200).body;
    const item = board.items.find((i: any) => i.property.parcel_key === PURSUE.key);
    expect(item.stage).toBe('researching');
  });

  it('exports the board from its buttons with the session cookie: GeoJSON, KML and a zipped Shapefile that parse', async () => {
    await page.goto(`${app.url}/#/board`);
    await page.locator(`.card-item[data-parcel-key="${PURSUE.key}"]`).waitFor();
    const exports = page.getByRole('group', { name: 'Export the board' });
    /** Clicks a format's button and answers the file the browser saved. */
    const saved = async (label: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), exports.getByRole('button', { name: label }).click()]);
      return { name: download.suggestedFilename(), bytes: await readFile((await download.path())!) };
    };

    const geojson = await saved('GeoJSON');
    const collection = JSON.parse(geojson.bytes.toString('utf8'));
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features.map((feature: any) => feature.properties.parcel_key)).toContain(PURSUE.key);

    const kml = await saved('KML');
    const placemarks = kmlToGeoJson(new DOMParser().parseFromString(kml.bytes.toString('utf8'), 'text/xml') as never).features;
    expect(placemarks.map((feature) => feature.properties?.parcel_key)).toContain(PURSUE.key);

    const zip = await saved('Shapefile (zip)');
    expect(zip.name).toMatch(/\.zip$/);
    const files = await unzip(zip.bytes);
    const shp = [...files.keys()].find((name) => name.endsWith('.shp'))!;
    const layer = await shapefile.read(files.get(shp)!, files.get(shp.replace(/\.shp$/, '.dbf'))!, { encoding: 'utf-8' });
    expect(layer.features.map((feature) => feature.properties!.parcel_key)).toContain(PURSUE.key);
    await page.getByText('Shapefile (zip) saved.').waitFor();
  });

  it('shows a viewer no Promote button, and the server refuses a viewer\'s promotion anyway', async () => {
    const { context, page: viewer } = await signIn(VIEWER);
    await mapDrawn(viewer);
    const hold = await onScreen(viewer, centre(HOLD));
    await viewer.mouse.click(hold.x, hold.y);
    await viewer.locator('.parcel-panel').getByRole('heading', { name: 'APN APN-44' }).waitFor();
    expect(await viewer.getByRole('button', { name: 'Promote to the board' }).count()).toBe(0);
    const refused = await viewer.evaluate(async (key) => {
      const csrf = ((globalThis as any).document.cookie as string).split('; ').find((c) => c.startsWith('landscreen_csrf='))!.split('=')[1]!;
      const response = await fetch('/v2/discovery/query', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ buy_box: 'dc', limit: 1 }) });
      const queryHash = ((await response.json()) as { query_hash: string }).query_hash;
      const promoted = await fetch('/v2/pipeline', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ parcel_key: key, buy_box: 'dc', query_hash: queryHash }) });
      return { status: promoted.status, body: await promoted.json() };
    }, HOLD.key);
    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    await context.close();
  });

  it('refuses a write made with the session cookie but without its CSRF token', async () => {
    const answer = await page.evaluate(async () => {
      const response = await fetch('/v1/buyboxes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'forged', spec: { markets: ['console-tx'], must: [], preferred: [], verdict_cutoffs: { pursue: 70, monitor: 40 } } }) });
      return { status: response.status, body: await response.json() };
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'csrf_failed' } });
  });

  it('counts eligible parcels live in the buy box editor, and passes axe on the buy box and runs pages', async () => {
    await page.goto(`${app.url}/#/buyboxes`);
    await page.locator('.live-count', { hasText: '56 eligible parcels' }).waitFor();
    // A stricter cutoff moves parcels between verdicts; the count follows as you type.
    await page.getByLabel('PURSUE from score').fill('101');
    await page.locator('.live-count', { hasText: '0 PURSUE' }).waitFor();
    // An unknown field is refused by the server on the spot, with its did-you-mean.
    await page.getByRole('button', { name: 'Add a must-have' }).click();
    const must = page.locator('table.rules').first();
    await must.getByRole('combobox', { name: 'Field' }).last().fill('slope_degres');
    await must.getByLabel('Value').last().fill('8');
    await page
      .locator('.problems', { hasText: "did you mean 'slope_degrees'?" })
      .waitFor()
      .catch(async (error) => {
        await screenshot(page, 'buy-boxes-no-problem-shown');
        throw error;
      });
    await screenshot(page, 'buy-boxes');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${app.url}/#/runs`);
    await page.getByRole('heading', { name: /^Credits in / }).waitFor();
    await page.getByText('No run yet.').waitFor();
    await screenshot(page, 'runs');
    expect(await seriousViolations(page)).toEqual([]);
  });
});


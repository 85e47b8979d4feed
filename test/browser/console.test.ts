// The console in a real browser (D40): Debian's Chromium through playwright-core, WebGL through
// SwiftShader, against the whole product on PGlite (the embedded default) with a small synthetic
// market (one fact screened from a layer by prepare). A person signs in through the emailed link,
// sees a PURSUE parcel in its colour where it lies and the parcels shaded by score (read back from
// the screen's pixels, not the DOM), toggles a layer with its legend, works the list beside the
// map (hover both ways, only what is in view, sorting), opens a parcel's evidence and facts with
// a click, promotes it and drags its card between stages and within one, writes a note (checked
// over REST), exports the board and the ranking, edits a buy box (text parser, did-you-mean,
// graded preference), and prices, runs and downloads a CSV of locations; a viewer has no Promote
// button and the server refuses the promotion anyway; axe-core finds nothing serious or critical
// on any page. Screenshots of each page are written to test-artifacts/console/.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import * as shapefile from 'shapefile';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { prepareMarket } from '@landscreen/prepare';
import { importLayer } from '../../services/catalog/src/layers/import-layer.js';
import { catalogDb } from '../../services/catalog/src/schema.js';
import { layerFiles, pointCollection, type LayerFiles } from '../../services/catalog/src/testing/layer-files.js';
import { launchChromium, pixelAt, screenshot, seriousViolations } from '../support/browser.js';
import { expectStatus, session } from '../support/diligence.js';
import { mailedLink } from '../support/mailbox.js';
import { parseCsv, tenantOnPlan } from '../support/runs.js';
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
/** The score ramp's deep end (score 100) and its pale end (score 0). */
const isDeepBlue = ([r, g, b]: [number, number, number]) => b > r + 60 && r + g + b < 330;
const isPale = ([r, g, b]: [number, number, number]) => r + g + b > 640;
/** The substations' circles. */
const isPurple = ([r, g, b]: [number, number, number]) => b > g + 50 && r > g + 15;
const SUBSTATION = centre(cell(2, 5));
const run = promisify(execFile);

/** The features GDAL (ogrinfo) counts in a GeoPackage's layers. */
async function ogrFeatureCount(bytes: Buffer): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'console-gpkg-'));
  try {
    const file = path.join(dir, 'board.gpkg');
    await writeFile(file, bytes);
    const { stdout } = await run('ogrinfo', ['-so', '-al', file]);
    return [...stdout.matchAll(/Feature Count: (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Browsers on a shared two-core machine are slow to start and draw: every wait is on readiness,
// with room for a loaded machine.
describe('the console in Chromium', () => {
  let app: TestStack;
  let files: LayerFiles;
  let browser: Browser;
  let analyst: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startTestStack('pglite', { runsWorker: true });
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
    // One fact screened from the layer by prepare, as a real market's are: it carries its layer version.
    await prepareMarket(db, { market: MARKET, fields: ['nearest_substation_max_voltage_kv'] });
    await tenantOnPlan(app, db, TENANT, 'scale');
    expectStatus(await app.post('/v1/buyboxes', { name: 'dc', spec: SPEC }, { headers: session(ANALYST, TENANT) }), 201);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await files?.remove();
  });

  // A failed step shows where the page stood: its address and a screenshot beside the others.
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !page || page.isClosed()) return;
    process.stderr.write(`[failed] ${task.name}: the page was at ${page.url()}\n`);
    await screenshot(page, `failed-${task.id}`);
  });

  /** Signs a person in the way they do: the sign-in page, the mailbox's link, the console. */
  async function signIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    // Only the test's timeout bounds a wait (docs/decisions.md): Playwright's own 30 s default is a deadline.
    context.setDefaultTimeout(0);
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
      }, undefined, { timeout: 0 })
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

  /** Runs `act` and waits until the map has drawn what it changed (its next idle). */
  async function redrawn(page: Page, act: () => Promise<unknown>): Promise<void> {
    const idle = page.evaluate(() => new Promise<void>((resolve) => (globalThis as any).landscreen.map.once('idle', () => resolve())));
    await act();
    await idle;
  }

  it('shows the sign-in page, and signs in through the emailed link into the map with an HttpOnly SameSite session cookie', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    context.setDefaultTimeout(0);
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

  it('shades the parcels by score when chosen, its ramp the legend: a PURSUE parcel (score 100) deep blue, a HOLD one (score 0) pale', async () => {
    await redrawn(page, () => page.getByLabel('Shaded by score').check());
    await page.locator('.legend-box .gradient-bar').waitFor();
    const png = await screenshot(page, 'map-by-score');
    const pursue = await onScreen(page, centre(PURSUE));
    const hold = await onScreen(page, centre(HOLD));
    expect(pixelAt(png, pursue.x, pursue.y), 'score 100').toSatisfy(isDeepBlue);
    expect(pixelAt(png, hold.x, hold.y), 'score 0').toSatisfy(isPale);
    await redrawn(page, () => page.getByLabel('By verdict').check());
    await page.locator('.legend-box .legend li', { hasText: 'PURSUE' }).waitFor();
    expect(pixelAt(await screenshot(page, 'map'), pursue.x, pursue.y)).toSatisfy(isGreen);
  });

  it('toggles a loaded layer with its legend: the substation drawn where it stands, then not', async () => {
    const layers = page.getByRole('group', { name: 'Layers' });
    const toggle = layers.getByRole('checkbox', { name: 'Substations' });
    expect(await toggle.isChecked()).toBe(true);
    await layers.locator('.legend li', { hasText: 'Substations' }).waitFor();
    const at = await onScreen(page, SUBSTATION);
    expect(pixelAt(await screenshot(page, 'map-layers'), at.x, at.y), 'substation shown').toSatisfy(isPurple);
    await redrawn(page, () => toggle.uncheck());
    expect(pixelAt(await screenshot(page, 'map-layers-off'), at.x, at.y), 'substation hidden').not.toSatisfy(isPurple);
    await redrawn(page, () => toggle.check());
  });

  it('keeps the list in step with the map: hover marks both ways, "only what is in view" follows the view, and it sorts', async () => {
    await page.locator('.list-summary', { hasText: '56 eligible parcels' }).waitFor();
    const list = page.getByRole('group', { name: 'Ranked parcels' });
    const hoverFilter = () => page.evaluate(() => JSON.stringify((globalThis as any).landscreen.map.getFilter('parcels-hover')));
    const framed = await page.evaluate(() => {
      const map = (globalThis as any).landscreen.map;
      return { center: map.getCenter().toArray(), zoom: map.getZoom() };
    });
    // Only what is in view: the whole grid, then the few parcels about the PURSUE one once zoomed in.
    await page.getByLabel('Only what is in view').check();
    await page.locator('.list-summary', { hasText: '56 eligible parcels in view' }).waitFor();
    await redrawn(page, () => page.evaluate((c) => (globalThis as any).landscreen.map.jumpTo({ center: c, zoom: 16 }), centre(PURSUE)));
    await page.locator('.list-summary', { hasText: /^([1-9]|[1-4][0-9]) eligible parcels in view$/ }).waitFor();
    const inView = await list.locator('.row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-parcel-key')));
    expect(inView).toContain(PURSUE.key);
    expect(inView.length).toBeLessThan(56);
    // A parcel hovered on the map marks its row; a row hovered outlines its parcel on the map.
    const pursue = await onScreen(page, centre(PURSUE));
    await page.mouse.move(pursue.x, pursue.y);
    await list.locator(`.row.hovered[data-parcel-key="${PURSUE.key}"]`).waitFor();
    const other = inView.find((key) => key !== PURSUE.key)!;
    await list.locator(`.row[data-parcel-key="${other}"]`).hover();
    await expect.poll(hoverFilter).toContain(other);
    // Sorting what is listed: lowest score first puts a HOLD parcel on top; by key, the keys ascend.
    await page.getByLabel('Sort').selectOption({ label: 'Score, lowest first' });
    await expect(list.locator('.row .badge').first().textContent()).resolves.toBe('HOLD');
    await page.getByLabel('Sort').selectOption({ label: 'Parcel key' });
    const byKey = await list.locator('.row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-parcel-key')!));
    expect(byKey).toEqual([...byKey].sort());
    await page.getByLabel('Sort').selectOption({ label: 'Score, best first' });
    await page.getByLabel('Only what is in view').uncheck();
    await page.locator('.list-summary', { hasText: '56 eligible parcels; ' }).waitFor();
    await redrawn(page, () => page.evaluate((view) => (globalThis as any).landscreen.map.jumpTo(view), framed));
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
    // The distance drawn on the map: the dashed line from the parcel to the substation.
    const line = await page.evaluate(() => (globalThis as any).landscreen.map.queryRenderedFeatures({ layers: ['distance-line'] }).map((f: any) => f.geometry.type));
    expect(line.length).toBeGreaterThan(0);
    // Facts grouped as the catalog groups them, each with where it came from: the screened one with its layer version.
    const groups = await panel.locator('table.facts caption').allTextContents();
    expect(groups).toEqual(expect.arrayContaining(['Parcel record', 'Utilities']));
    const sources = expectStatus(await app.get('/v1/meta/sources', { headers: session(ANALYST, TENANT) }), 200).body.sources as any[];
    const substations = sources.find((source) => source.id === 'hifld_substations');
    const voltage = panel.locator('table.facts tr', { hasText: 'Nearest substation max voltage' });
    await expect(voltage.locator('td').first().textContent()).resolves.toBe('138 kV');
    await expect(voltage.locator('td.provenance').textContent()).resolves.toBe(`layer ${substations.current_version.id.slice(0, 8)}`);
    await screenshot(page, 'parcel-panel');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('promotes the parcel, and a drag moves its card between stages (checked over REST)', async () => {
    await page.getByRole('button', { name: 'Promote to the board' }).click();
    await page.getByText('Promoted: the card is on the board').waitFor();
    await page.getByRole('link', { name: 'Site report (PDF)' }).waitFor();
    // Its diligence, as the panel shows it once the parcel is a property.
    const diligence = page.locator('.parcel-panel .diligence');
    await diligence.getByRole('heading', { name: 'Diligence' }).waitFor();
    await diligence.getByText('Job:').waitFor();
    // The site report, from the panel's link with the session cookie.
    const [report] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Site report (PDF)' }).click()]);
    expect((await readFile((await report.path())!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
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

  it('reorders cards within a stage by drag, saves a note, and shows each card\'s diligence status (checked over REST)', async () => {
    // Two more parcels promoted (over REST): the "new" column holds both, in promotion order.
    const queryHash = expectStatus(await app.post('/v2/discovery/query', { buy_box: 'dc', limit: 1 }, { headers: session(ANALYST, TENANT) }), 200).body.query_hash;
    for (const key of ['c-0-0', 'c-0-3']) expectStatus(await app.post('/v2/pipeline', { parcel_key: key, buy_box: 'dc', query_hash: queryHash }, { headers: session(ANALYST, TENANT) }), 202);
    const newKeys = async () => {
      const board = expectStatus(await app.get('/v1/pipeline', { headers: session(ANALYST, TENANT) }), 200).body;
      return (board.items as any[]).filter((item) => item.stage === 'new').sort((a, b) => a.position - b.position).map((item) => item.property.parcel_key);
    };
    expect(await newKeys()).toEqual(['c-0-0', 'c-0-3']);
    // The board is open already (the last test's): read again.
    await page.goto(`${app.url}/#/board`);
    await page.reload();
    const column = page.locator('section.column[data-stage="new"]');
    const first = column.locator('.card-item[data-parcel-key="c-0-0"]');
    const second = column.locator('.card-item[data-parcel-key="c-0-3"]');
    await second.waitFor();
    // Dropped above the first card: it goes first.
    await second.dragTo(first, { targetPosition: { x: 20, y: 4 } });
    await expect.poll(newKeys).toEqual(['c-0-3', 'c-0-0']);
    await column.locator('.card-item').first().and(page.locator('[data-parcel-key="c-0-3"]')).waitFor();
    // A note, written on the card and saved.
    const card = column.locator('.card-item[data-parcel-key="c-0-0"]');
    await card.getByRole('button', { name: 'Notes' }).click();
    await card.getByRole('textbox', { name: 'Notes' }).fill('Call the owner about the easement.');
    await card.getByRole('button', { name: 'Save' }).click();
    await column.locator('.card-item[data-parcel-key="c-0-0"] .card-notes', { hasText: 'Call the owner about the easement.' }).waitFor();
    const board = expectStatus(await app.get('/v1/pipeline', { headers: session(ANALYST, TENANT) }), 200).body;
    const noted = (board.items as any[]).find((item) => item.property.parcel_key === 'c-0-0');
    expect(noted.notes).toBe('Call the owner about the easement.');
    // Each card's diligence status is the board's.
    for (const item of board.items as any[]) {
      const pill = page.locator(`.card-item[data-parcel-key="${item.property.parcel_key}"] .pill`);
      await expect(pill.textContent()).resolves.toBe(String(item.screen_status ?? 'none').replace(/_/g, ' '));
    }
    await screenshot(page, 'board-reordered');
  });

  it('exports the board from its buttons with the session cookie: GeoJSON, KML, CSV, a zipped Shapefile and a GeoPackage that parse', async () => {
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

    const csv = parseCsv((await saved('CSV')).bytes.toString('utf8'));
    expect(csv[0]).toContain('parcel_key');
    expect(csv.slice(1).map((row) => row[csv[0]!.indexOf('parcel_key')])).toContain(PURSUE.key);

    const gpkg = await saved('GeoPackage');
    expect(gpkg.bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
    expect(await ogrFeatureCount(gpkg.bytes)).toBe(3);
  });

  it('exports the ranking from the map\'s buttons: every eligible parcel, best first', async () => {
    await page.goto(`${app.url}/#/map`);
    const exports = page.getByRole('group', { name: 'Export the ranking' });
    await exports.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), exports.getByRole('button', { name: 'GeoJSON' }).click()]);
    const collection = JSON.parse((await readFile((await download.path())!)).toString('utf8'));
    expect(collection.features).toHaveLength(56);
    expect(collection.features[0].properties.verdict).toBe('PURSUE');
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

  it('turns buy-box text into rules, refuses a misspelt market with its did-you-mean, and saves a graded preference (checked over REST)', async () => {
    await page.goto(`${app.url}/#/buyboxes`);
    await page.getByRole('button', { name: 'New buy box' }).click();
    await page.getByText('Write it as text').click();
    await page.getByLabel('Buy box text').fill('market: console-tx\nmust: at least 30 acres\nprefer: within 2 km of a substation weight 3\npursue: 60\nmonitor: 30');
    await page.getByRole('button', { name: 'Turn the text into rules' }).click();
    const [must, preferred] = [page.locator('table.rules').nth(0), page.locator('table.rules').nth(1)];
    await expect(must.getByRole('combobox', { name: 'Field' }).first().inputValue()).resolves.toBe('acres');
    await expect(must.getByLabel('Value').first().inputValue()).resolves.toBe('30');
    await expect(preferred.getByRole('combobox', { name: 'Field' }).first().inputValue()).resolves.toBe('nearest_substation_distance_m');
    await page.locator('.live-count', { hasText: '56 eligible parcels' }).waitFor();
    // A misspelt market: the server's refusal, with the market it is close to.
    await page.getByLabel('Market').fill('console-t');
    await page.locator('.problems', { hasText: 'did you mean "console-tx"?' }).waitFor();
    await page.getByLabel('Market').fill('console-tx');
    await page.locator('.live-count', { hasText: '56 eligible parcels' }).waitFor();
    // D41: the preference graded, full weight at 2 km falling to none at 8 km; saved with its grade.
    await preferred.getByLabel('Worth nothing at').first().fill('8000');
    await page.getByLabel('Name').fill('graded');
    await page.getByRole('button', { name: 'Save the buy box' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = (expectStatus(await app.get('/v1/buyboxes', { headers: session(ANALYST, TENANT) }), 200).body as any[]).find((box) => box.name === 'graded');
    expect(saved.spec.must).toEqual([expect.objectContaining({ field: 'acres', op: 'gte', value: 30 })]);
    expect(saved.spec.preferred).toEqual([expect.objectContaining({ field: 'nearest_substation_distance_m', weight: 3, grade: { zero_at: 8000 } })]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('prices a CSV of locations before it runs, follows the run to the end, downloads its results, and shows its credits by operation', async () => {
    await page.goto(`${app.url}/#/runs`);
    await page.getByText('No run yet.').waitFor();
    await page.getByLabel('Fields').selectOption(['nearest_substation_distance_m']);
    const [sx, sy] = SUBSTATION;
    const sites = `id,lat,lon\nnear,${sy + 0.001},${sx}\nmid,${sy + 0.01},${sx}\nfar,${sy + 0.03},${sx + 0.02}\n`;
    await page.getByLabel('Locations (CSV)').setInputFiles({ name: 'sites.csv', mimeType: 'text/csv', buffer: Buffer.from(sites) });
    const quote = page.locator('.quote', { hasText: /^This run costs \d+ credits/ });
    await quote.waitFor();
    // The quote was a dry run: nothing was created or charged.
    expect(expectStatus(await app.get('/v1/runs', { headers: session(ANALYST, TENANT) }), 200).body.runs).toEqual([]);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const row = page.locator('li.run');
    await row.locator('.pill', { hasText: 'succeeded' }).waitFor();
    await expect(row.locator('progress').evaluate((bar) => (bar as unknown as { value: number }).value)).resolves.toBe(1);
    await screenshot(page, 'runs-done');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'CSV' }).click()]);
    const results = parseCsv((await readFile((await download.path())!)).toString('utf8'));
    const column = results[0]!.indexOf('nearest_substation_distance_m');
    expect(column).toBeGreaterThanOrEqual(0);
    const distances = results.slice(1).map((line) => Number(line[column]));
    expect(distances).toHaveLength(3);
    expect(distances[0]).toBeLessThan(distances[1]!);
    expect(distances[1]).toBeLessThan(distances[2]!);
    // The month's credits by operation name the run.
    const charged = expectStatus(await app.get('/v1/usage', { headers: session(ANALYST, TENANT) }), 200).body.by_operation.run;
    expect(charged).toBeGreaterThan(0);
    await page.locator('table.by-operation tr', { hasText: 'Run' }).locator('td', { hasText: String(charged) }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

// BASEMAP_STYLE_URL in a real browser (D40): an operator's MapLibre style, served by a tile service
// of their own (here a small HTTP server answering a style with a magenta background, CORS open
// as such services are), is drawn under the parcels instead of the Census outlines, which the
// page then neither preloads nor asks for.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { launchChromium, pixelAt, screenshot } from '../support/browser.js';
import { expectStatus, session } from '../support/diligence.js';
import { mailedLink } from '../support/mailbox.js';

const TENANT = 'acme-basemap';
const ANALYST = 'ann@acme-basemap.test';
const MARKET = 'basemap-tx';
const SQUARE = { lon: -97.62, lat: 30.38, size: 0.01 };
const PARCEL = {
  geometry: { type: 'Polygon' as const, coordinates: [[[SQUARE.lon, SQUARE.lat], [SQUARE.lon + SQUARE.size, SQUARE.lat], [SQUARE.lon + SQUARE.size, SQUARE.lat + SQUARE.size], [SQUARE.lon, SQUARE.lat + SQUARE.size], [SQUARE.lon, SQUARE.lat]]] },
  properties: { parcel_key: 'b-1', apn: 'B-1', acres: 60, zoning: 'AG' },
};
const STYLE = { version: 8, sources: {}, layers: [{ id: 'operator-background', type: 'background', paint: { 'background-color': '#ff00ff' } }] };

const isMagenta = ([r, g, b]: [number, number, number]) => r > 200 && b > 200 && g < 60;
/** PURSUE green at the fill's opacity (0.85) over the magenta: about (60, 108, 85). */
const isGreenOnMagenta = ([r, g, b]: [number, number, number]) => g > r + 30 && g > b + 10;

describe('the console with BASEMAP_STYLE_URL', () => {
  let tiles: Server;
  let app: TestStack;
  let browser: Browser;
  const styleRequests: string[] = [];

  beforeAll(async () => {
    tiles = createServer((request, response) => {
      styleRequests.push(request.url ?? '');
      response.writeHead(request.url === '/style.json' ? 200 : 404, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      response.end(request.url === '/style.json' ? JSON.stringify(STYLE) : '{}');
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const styleUrl = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/style.json`;
    app = await startTestStack('pglite', { config: { basemapStyleUrl: styleUrl } });
    expectStatus(await app.get('/v1/me', { headers: session(ANALYST, TENANT, 'analyst') }), 200);
    await loadMarket(app.stack.database.db, MARKET, [PARCEL]);
    await entitleTenant(app.stack.database.db, TENANT, MARKET);
    const spec = { markets: [MARKET], must: [{ field: 'acres', op: 'gte', value: 20 }], preferred: [], verdict_cutoffs: { pursue: 0, monitor: 0 } };
    expectStatus(await app.post('/v1/buyboxes', { name: 'dc', spec }, { headers: session(ANALYST, TENANT) }), 201);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => tiles?.close(resolve));
  });

  it('draws the operator\'s style under the parcels, and never asks for the Census outlines', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    // Only the test's timeout bounds a wait (docs/decisions.md): Playwright's own 30 s default is a deadline.
    context.setDefaultTimeout(0);
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    await page.goto(`${app.url}/`);
    await page.getByLabel('Email').fill(ANALYST);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText(`If ${ANALYST} is a member`).waitFor();
    await page.goto((await mailedLink(app.config.dataDir, ANALYST)).replace(app.config.publicUrl, app.url));
    await page.waitForFunction(() => {
      const map = (globalThis as any).landscreen?.map;
      return !!map && map.loaded() && map.areTilesLoaded() && map.queryRenderedFeatures({ layers: ['parcels-fill'] }).length > 0;
    }, undefined, { timeout: 0 });
    const { parcel, corner } = await page.evaluate((point) => {
      const map = (globalThis as any).landscreen.map;
      const rect = map.getCanvas().getBoundingClientRect();
      const at = map.project(point);
      return { parcel: { x: rect.left + at.x, y: rect.top + at.y }, corner: { x: rect.left + 20, y: rect.top + 20 } };
    }, [SQUARE.lon + SQUARE.size / 2, SQUARE.lat + SQUARE.size / 2]);
    const png = await screenshot(page, 'map-basemap-style');
    expect(pixelAt(png, corner.x, corner.y), 'the operator\'s background').toSatisfy(isMagenta);
    expect(pixelAt(png, parcel.x, parcel.y), 'the parcel on it').toSatisfy(isGreenOnMagenta);
    expect(styleRequests).toContain('/style.json');
    expect(asked.filter((url) => url.includes('counties-10m.json'))).toEqual([]);
    await context.close();
  });
});

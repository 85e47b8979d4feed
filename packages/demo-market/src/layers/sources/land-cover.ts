// Land cover layers: LCMS classes, tree canopy (a grid), NDVI and the cropland data layer, on
// 2 km cells, from the same inputs as the parcels' facts: hills are wooded, the prairie farmed,
// the riverbanks green, the towns built.

import { clamp } from '../../round.js';
import { urbanInfluence } from '../../world/settlements.js';
import { tileDraw } from '../context.js';
import { box, tiles, type Tile } from '../shapes.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { RiverDistance } from './river-distance.js';

const CELL_KM = 2;

interface Cover {
  tile: Tile;
  urban: number;
  hilliness: number;
  riverKm: number;
  draw: number;
}

function* covers(context: LayerContext, salt: number): Generator<Cover> {
  const rivers = new RiverDistance(context.world);
  const towns = context.world.settlements.towns;
  for (const tile of tiles(context.extent, CELL_KM)) {
    yield {
      tile,
      urban: urbanInfluence(towns, tile.cx, tile.cy),
      hilliness: context.world.terrain.at(tile.cx, tile.cy).hilliness,
      riverKm: rivers.at(tile.cx, tile.cy),
      draw: tileDraw(context.seed, salt, tile.i, tile.j),
    };
  }
}

const cell = (c: Cover, properties: DemoLayerFeature['properties']): DemoLayerFeature => ({
  geometry: box(c.tile.x0, c.tile.y0, c.tile.x1, c.tile.y1),
  properties,
});

function* lcms(context: LayerContext): Generator<DemoLayerFeature> {
  for (const c of covers(context, 0x1c35)) {
    const developed = c.urban > 0.45;
    const wooded = c.hilliness > 0.5 || c.riverKm < 0.5;
    yield cell(c, {
      land_cover_class: developed ? 'Impervious' : wooded ? (c.draw < 0.7 ? 'Trees' : 'Tall Shrubs') : c.draw < 0.75 ? 'Grass/Forb/Herb' : 'Shrubs',
      land_use_class: developed ? 'Developed' : wooded ? 'Forest' : c.draw < 0.55 ? 'Agriculture' : 'Rangeland or Pasture',
    });
  }
}

function* ndvi(context: LayerContext): Generator<DemoLayerFeature> {
  for (const c of covers(context, 0x0d71)) {
    const green = 0.28 + 0.25 * c.hilliness + 0.2 * Math.exp(-c.riverKm / 0.8) - 0.2 * c.urban + 0.08 * (c.draw - 0.5);
    yield cell(c, {
      ndvi_current: Math.round(clamp(green, -0.1, 0.9) * 1000) / 1000,
      ndvi_change_5y: Math.round((-0.03 - 0.08 * c.urban + 0.1 * (c.draw - 0.5)) * 1000) / 1000,
    });
  }
}

const CROPS = ['Cotton', 'Corn', 'Sorghum', 'Winter Wheat'];

function* croplands(context: LayerContext): Generator<DemoLayerFeature> {
  for (const c of covers(context, 0xcd1)) {
    let crop: string;
    if (c.urban > 0.45) crop = c.urban > 0.7 ? 'Developed/Medium Intensity' : 'Developed/Low Intensity';
    else if (c.hilliness > 0.55) crop = c.draw < 0.6 ? 'Evergreen Forest' : 'Shrubland';
    else crop = c.draw < 0.5 ? CROPS[Math.floor(c.draw * 8)] : 'Grassland/Pasture';
    const cultivated = CROPS.includes(crop);
    yield cell(c, { crop_class: crop, cultivated, dominant_crop_5y: cultivated ? crop : c.hilliness > 0.55 ? 'None' : 'Grassland/Pasture' });
  }
}

export const LAND_COVER_RECIPES: readonly LayerRecipe[] = [
  { source: 'usfs_lcms', format: 'geojson', features: lcms },
  {
    source: 'usfs_nlcd_tree_canopy',
    format: 'geotiff',
    cellKm: 0.3,
    // As the parcels' canopy fact: wooded hills and riverbanks, bare towns.
    sampler: (context) => {
      const rivers = new RiverDistance(context.world);
      const towns = context.world.settlements.towns;
      return (x, y) => {
        const s = context.world.terrain.at(x, y);
        const canopy = 6 + 32 * s.hilliness + 30 * Math.exp(-rivers.at(x, y) / 0.5) - 14 * urbanInfluence(towns, x, y);
        return Math.round(clamp(canopy, 0, 95) * 10) / 10;
      };
    },
  },
  { source: 'copernicus_sentinel2_ndvi', format: 'geojson', features: ndvi },
  { source: 'usda_nass_cdl', format: 'geojson', features: croplands },
];

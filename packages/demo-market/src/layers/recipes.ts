// Every layer source's recipe, by catalog group. Each layer source the catalog declares has
// exactly one (checked by missingRecipes, and by the tests), so that the demo's layers let the
// engine answer every field somewhere.

import { SOURCE_DECLARATIONS, isLayerSource, type SourceId } from '@landscreen/field-catalog';
import { BUILT_RECIPES } from './sources/built.js';
import { CLIMATE_RECIPES } from './sources/climate.js';
import { FUEL_WATER_TRANSPORT_RECIPES } from './sources/fuel-water-transport.js';
import { GRID_NETWORK_RECIPES } from './sources/grid-networks.js';
import { HAZARD_RECIPES } from './sources/hazards.js';
import { LAND_COVER_RECIPES } from './sources/land-cover.js';
import { PARCEL_GROUP_RECIPES } from './sources/parcels.js';
import { TERRAIN_RECIPES } from './sources/terrain.js';
import type { LayerRecipe } from './types.js';

export const DEMO_LAYER_RECIPES: readonly LayerRecipe[] = [
  ...TERRAIN_RECIPES,
  ...LAND_COVER_RECIPES,
  ...BUILT_RECIPES,
  ...GRID_NETWORK_RECIPES,
  ...FUEL_WATER_TRANSPORT_RECIPES,
  ...PARCEL_GROUP_RECIPES,
  ...CLIMATE_RECIPES,
  ...HAZARD_RECIPES,
];

/** The source and file format of every demo layer, in the order they are written. */
export function demoLayerFormats(): { source: SourceId; format: LayerRecipe['format'] }[] {
  return DEMO_LAYER_RECIPES.map(({ source, format }) => ({ source, format }));
}

/** Layer sources of the catalog without a recipe (and recipes of sources that are not layers, or twice). */
export function recipeProblems(): string[] {
  const problems: string[] = [];
  const seen = new Set<SourceId>();
  for (const recipe of DEMO_LAYER_RECIPES) {
    const declaration = SOURCE_DECLARATIONS.find((d) => d.id === recipe.source);
    if (!isLayerSource(declaration)) problems.push(`${recipe.source} is not a layer source`);
    else if ((declaration.geometry === 'grid') !== (recipe.format === 'geotiff')) problems.push(`${recipe.source}: format ${recipe.format} for ${declaration.geometry}`);
    if (seen.has(recipe.source)) problems.push(`${recipe.source} has two recipes`);
    seen.add(recipe.source);
  }
  for (const declaration of SOURCE_DECLARATIONS) {
    if (isLayerSource(declaration) && !seen.has(declaration.id)) problems.push(`${declaration.id} has no recipe`);
  }
  return problems;
}

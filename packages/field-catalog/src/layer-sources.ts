// What each catalog source is as a layer (D36): its geometry kind and the feature
// properties the evaluators read, under plain names (`landscreen import layer --map` renames a
// file's properties onto them). Published at GET /v1/meta/sources and in docs/layers.md. The
// eight sources of the table are binding; the rest follow the same style.
//
// Multi-valued gridded products (irradiance, wind resource, NDVI, ...) are declared as polygons
// (their cells or regions) with one property per value: a gridded source is one band, as a
// single-band GeoTIFF gives it.

import type { SourceId } from './sources.js';

export type GeometryKind = 'points' | 'lines' | 'polygons' | 'grid' | 'mixed';

export type PropertyType = 'string' | 'number' | 'integer' | 'boolean';

export interface SourceProperty {
  readonly name: string;
  readonly type: PropertyType;
  /** Strings made of digits (GEOIDs) are left-padded with zeros to this length when a file gave a number. */
  readonly digits?: number;
  /**
   * Sentinels: values the source publishes for "unknown" (HIFLD's -999999, "NOT AVAILABLE"),
   * read as absent, so a field reading the property answers null `not_published`, never the sentinel.
   */
  readonly unknownValues?: readonly (string | number)[];
  /** What the publisher means by its sentinels, for docs/layers.md. */
  readonly unknownMeaning?: string;
  /**
   * The form every value must have; an import with a value of another form is refused (a county
   * GEOID mapped onto a tract's property, say). Numbers are checked as the engine reads them
   * (zero-padded to `digits`).
   */
  readonly pattern?: ValuePattern;
}

export interface ValuePattern {
  /** A JavaScript regular expression, anchored. */
  readonly regex: string;
  /** What a matching value is, in words: the refusal and docs/layers.md say it. */
  readonly meaning: string;
}

/**
 * Which of a publisher's features the source is: a `--where` expression over the file's own
 * attributes (before --map). A file carrying none of the attributes it names is taken as already
 * filtered and loads whole.
 */
export interface SourceFilter {
  readonly where: string;
  readonly meaning: string;
}

/** A source imported as layer versions. */
export interface LayerSource {
  readonly id: SourceId;
  readonly feeds: 'layer';
  readonly geometry: GeometryKind;
  readonly properties: readonly SourceProperty[];
  /** For grids: what the band holds, in which unit. */
  readonly band?: string;
  /** The publisher's features that make the source (NFHL: the special flood hazard area only). */
  readonly filter?: SourceFilter;
}

/** A source that is no layer: the parcels of a vintage, a derivation, a service parameter. */
export interface NonLayerSource {
  readonly id: SourceId;
  readonly feeds: 'parcels' | 'derivation' | 'service_parameter';
  readonly meaning: string;
}

export type SourceDeclaration = LayerSource | NonLayerSource;

const str = (name: string, extra: Partial<SourceProperty> = {}): SourceProperty => ({ name, type: 'string', ...extra });
const num = (name: string, extra: Partial<SourceProperty> = {}): SourceProperty => ({ name, type: 'number', ...extra });
const int = (name: string): SourceProperty => ({ name, type: 'integer' });
const bool = (name: string): SourceProperty => ({ name, type: 'boolean' });

const points = (id: SourceId, ...properties: SourceProperty[]): LayerSource => ({ id, feeds: 'layer', geometry: 'points', properties });
const lines = (id: SourceId, ...properties: SourceProperty[]): LayerSource => ({ id, feeds: 'layer', geometry: 'lines', properties });
const polygons = (id: SourceId, ...properties: SourceProperty[]): LayerSource => ({ id, feeds: 'layer', geometry: 'polygons', properties });
const grid = (id: SourceId, band: string): LayerSource => ({ id, feeds: 'layer', geometry: 'grid', properties: [], band });

const HIFLD_SENTINELS: Partial<SourceProperty> = {
  unknownValues: [-999999, 'NOT AVAILABLE'],
  unknownMeaning: 'HIFLD publishes -999999 and "NOT AVAILABLE" where the value is not known',
};

/** An 11-digit Census tract GEOID: state (01-99), county (3 digits), tract (6 digits). */
const TRACT_GEOID: Partial<SourceProperty> = {
  digits: 11,
  pattern: {
    regex: '^(0[1-9]|[1-9][0-9])[0-9]{9}$',
    meaning: 'an 11-digit Census tract GEOID (2-digit state, 3-digit county, 6-digit tract, e.g. 48453001100)',
  },
};

const withFilter = (source: LayerSource, filter: SourceFilter): LayerSource => ({ ...source, filter });

const DECLARATIONS: readonly SourceDeclaration[] = [
  // terrain
  grid('usgs_3dep', 'elevation above mean sea level, meters'),
  lines('noaa_shoreline'),
  polygons('usda_nrcs_ssurgo', str('map_unit_name'), str('drainage_class'), num('bedrock_depth_cm'), str('shrink_swell_class'), str('farmland_class')),
  {
    id: 'usgs_nhdplus_hr',
    feeds: 'layer',
    // Flowlines are lines, waterbodies and areas polygons, in one layer told apart by feature_type.
    geometry: 'mixed',
    properties: [str('feature_type'), str('name')],
  },
  polygons('usgs_wbd', str('huc12_name')),
  withFilter(polygons('fema_nfhl'), {
    // FEMA's S_FLD_HAZ_AR holds every zone; the floodplain is the special flood hazard area (the
    // 1% annual chance zones A* and V*), not zone X (moderate or minimal hazard), D or open water.
    where: "SFHA_TF = 'T' OR (SFHA_TF IS NULL AND FLD_ZONE IN ('A', 'AE', 'AH', 'AO', 'AR', 'A99', 'V', 'VE'))",
    meaning: 'the special flood hazard area (SFHA_TF = T: zones A, AE, AH, AO, AR, A99, V, VE), not zone X, D or open water',
  }),
  polygons('usfws_nwi', str('wetland_type'), str('wetland_subtype')),
  grid('jrc_global_surface_water', 'surface water occurrence, percent of observations'),
  // land_cover
  polygons('usfs_lcms', str('land_cover_class'), str('land_use_class')),
  grid('usfs_nlcd_tree_canopy', 'tree canopy cover, percent'),
  polygons('copernicus_sentinel2_ndvi', num('ndvi_current'), num('ndvi_change_5y')),
  polygons('usda_nass_cdl', str('crop_class'), bool('cultivated'), str('dominant_crop_5y')),
  // built_environment
  polygons('overture_buildings', num('height_m'), int('num_floors'), str('building_class')),
  lines('osm_roads', str('name')),
  points('fhwa_nbi', str('name')),
  points('usgs_uswtdb', num('hub_height_m'), num('total_height_m'), num('project_capacity_mw')),
  points('usgs_uspvdb', num('capacity_mw')),
  points('epa_repowering', str('name')),
  polygons('cdfi_opportunity_zones', str('tract_geoid', TRACT_GEOID)),
  // utilities
  points('eia_860_power_plants', str('name'), str('primary_fuel'), num('capacity_mw')),
  lines(
    'hifld_transmission_lines',
    num('voltage_kv', HIFLD_SENTINELS),
    str('voltage_class', HIFLD_SENTINELS),
    str('status', HIFLD_SENTINELS),
    str('owner', HIFLD_SENTINELS),
  ),
  points(
    'hifld_substations',
    str('name', HIFLD_SENTINELS),
    num('max_voltage_kv', HIFLD_SENTINELS),
    str('status', HIFLD_SENTINELS),
  ),
  polygons('hifld_electric_service_territories', str('utility_name')),
  lines('eia_gas_pipelines', str('operator'), str('pipeline_type')),
  lines('eia_petroleum_pipelines', str('operator'), str('product')),
  points('eia_gas_compressor_stations', str('name')),
  points('eia_gas_storage', str('name')),
  points('eia_lng_terminals', str('name')),
  polygons('eia_shale_plays', str('name')),
  polygons('eia_sedimentary_basins', str('name')),
  polygons('eia_861_retail_sales', num('industrial_usd_per_kwh')),
  polygons('eia_natural_gas_prices', num('citygate_usd_per_mcf'), num('industrial_usd_per_mcf')),
  polygons('epa_egrid', str('subregion'), num('co2_kg_per_mwh')),
  // County polygons (area_kind county) and ISO/RTO footprints (area_kind iso, named by iso).
  polygons('lbnl_queued_up', str('area_kind'), str('iso'), num('active_capacity_mw')),
  points('eia_860m_proposed_generators', str('name')),
  polygons('epa_sdwis', str('name'), int('population_served')),
  polygons('usgs_water_use', num('supply_use_index'), num('thermoelectric_consumptive_use_m3_per_day')),
  points('usgs_nwis_groundwater', num('depth_to_water_m')),
  polygons('fcc_broadband_map', int('fiber_provider_count'), str('mobile_5g_class')),
  polygons('census_urban_areas', str('name')),
  lines('bts_ntad_rail', bool('long_haul')),
  points('bts_ntad_airports', str('name')),
  points('bts_ntad_ports', str('name')),
  points('fcc_asr', num('height_m'), str('structure_type'), str('owner')),
  lines('noaa_submarine_cables', str('name')),
  // parcels
  polygons('census_tiger', str('tract_geoid', TRACT_GEOID), str('county'), str('region'), str('locality')),
  polygons('nced_easements', str('holder'), str('easement_type'), str('purpose'), int('year_established')),
  polygons('usgs_pad_us', str('name'), int('gap_status'), str('designation'), str('manager'), str('public_access')),
  polygons('usfws_critical_habitat', str('status'), str('species'), str('listing_status')),
  polygons('blm_surface_management_agency', str('agency')),
  polygons('faa_special_use_airspace', str('airspace_type')),
  polygons('blm_solar_planning', str('land_status')),
  grid('usfws_golden_eagle_nests', 'modeled golden eagle nest density index'),
  // climate
  polygons('nrel_nsrdb', num('ghi_kwh_m2_day'), num('dni_kwh_m2_day'), num('albedo')),
  polygons('nrel_pvwatts', num('capacity_factor_pct'), num('specific_yield_kwh_per_kw'), num('optimal_tilt_degrees')),
  polygons(
    'nrel_wind_toolkit',
    num('wind_speed_100m_ms'),
    num('wind_speed_120m_ms'),
    num('wind_speed_160m_ms'),
    num('power_density_100m_wm2'),
    str('prevailing_direction_100m'),
    num('weibull_k_100m'),
  ),
  polygons('nrel_rev_supply_curves', num('wind_capacity_factor_pct'), num('interconnect_distance_m')),
  points('ashrae_design_conditions', num('wet_bulb_0_4pct_degc')),
  polygons('noaa_climate_normals', num('dry_bulb_degc'), num('relative_humidity_pct')),
  grid('noaa_nclimgrid_daily', 'days a year above 32 degrees Celsius'),
  grid('nasa_modis_snow_cover', 'days a year with snow cover'),
  polygons('usdm_drought_monitor', str('category')),
  // hazards
  polygons('usgs_seismic_design_maps', str('design_category')),
  grid('usgs_nshm', 'peak ground acceleration, 2% in 50 years, g'),
  polygons('asce_hazard_tool', num('design_wind_speed_mph')),
  polygons('fema_nri', num('wildfire_frequency'), num('tornado_frequency'), num('hail_frequency'), num('lightning_flash_days')),
  grid('usgs_landslide_susceptibility', 'landslide susceptibility index'),
  points('usace_nid', str('hazard_potential')),
  points('epa_frs', str('name')),
  // Census blocks as points (their internal points) with their housing unit count.
  points('census_housing_units', int('housing_units')),
  // Nonattainment and maintenance areas, one polygon per area and pollutant.
  polygons('epa_green_book', str('area_status'), str('pollutant'), str('classification')),
  points('epa_brownfields', str('name')),
  points('epa_superfund_npl', str('name')),
  polygons('state_air_districts', str('name')),
  polygons('nps_class_i_areas', str('name'), str('agency')),
  // not layers
  {
    id: 'parcel_vendor',
    feeds: 'parcels',
    meaning: "The loaded parcels of the market's current vintage (landscreen import parcels), matched to the point.",
  },
  { id: 'derived', feeds: 'derivation', meaning: 'Computed from other fields by a versioned formula.' },
  { id: 'service_parameter', feeds: 'service_parameter', meaning: 'A constant of the service, such as a search radius.' },
];

export const SOURCE_DECLARATIONS: readonly SourceDeclaration[] = Object.freeze(DECLARATIONS);

export const SOURCE_DECLARATION_BY_ID: ReadonlyMap<SourceId, SourceDeclaration> = new Map(
  DECLARATIONS.map((declaration) => [declaration.id, declaration]),
);

export function isLayerSource(declaration: SourceDeclaration | undefined): declaration is LayerSource {
  return declaration?.feeds === 'layer';
}

/** The layer declaration of a source id; throws for a source that is no layer. */
export function layerSource(id: SourceId): LayerSource {
  const declaration = SOURCE_DECLARATION_BY_ID.get(id);
  if (!isLayerSource(declaration)) throw new Error(`source ${id} is not a layer source`);
  return declaration;
}

/**
 * Search radii of the radius fields (service parameters; the spec states only the three
 * search-limited distances, which the layer files give inline).
 */
export const SEARCH_RADII_M = Object.freeze({
  transmission_lines: 10_000,
  substations: 10_000,
  pipelines: 10_000,
  brownfields: 5_000,
  superfund_sites: 5_000,
});

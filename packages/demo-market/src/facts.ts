// The facts of one parcel, and the one place that lists the properties a demo feature carries
// and their order. The fact makers fill a reused ParcelFacts; `toProperties` turns it into the
// feature's properties with a single object literal, which keeps every feature the same shape
// (fast to build, stable key order, so the same seed serialises to the same bytes).

/** Typed facts (D13): the parcel columns every market has. The importer builds parcel_key from market + apn. */
export const DEMO_TYPED_FIELDS = [
  'apn',
  'address',
  'owner_name',
  'zoning',
  'land_use',
  'acres',
  'developable_acres',
  'assessed_value_usd',
] as const;

/** Point-data catalog fields, in catalog order (layer, then table order). */
export const DEMO_CATALOG_FIELDS = [
  'elevation',
  'slope_degrees',
  'aspect_degrees',
  'aspect_cardinal',
  'within_floodplain_polygon',
  'intersects_wetland',
  'nearest_wetland_distance_m',
  'soil_shrink_swell_class',
  'prime_farmland_classification',
  'tree_canopy_pct',
  'nearest_major_road_name',
  'nearest_major_road_distance_m',
  'in_opportunity_zone',
  'nearest_transmission_line_distance_m',
  'nearest_transmission_line_voltage_kv',
  'transmission_lines_within_radius_count',
  'nearest_gas_pipeline_distance_m',
  'nearest_gas_pipeline_operator',
  'nearest_rail_line_distance_m',
  'nearest_substation_distance_m',
  'nearest_substation_max_voltage_kv',
  'substations_within_radius_count',
  'substations_radius_m',
  'electric_utility_service_territory',
  'avg_retail_electricity_price_industrial_usd_per_kwh',
  'grid_price_usd_per_mwh',
  'fiber_provider_count',
  'fiber_broadband_available',
  'ghi_annual_kwh_m2_day',
  'mean_wind_speed_100m_ms',
  'drought_category',
  'seismic_design_category',
  'housing_units_within_1km',
  'housing_units_density_per_km2',
] as const;

/** Free facts: neither typed nor in the catalog; they reach rules through the vintage's free_fact_fields. */
export const DEMO_FREE_FACT_FIELDS = ['school_district', 'last_sale_year', 'listing_status'] as const;

export const ZONINGS = ['industrial', 'agricultural', 'commercial', 'residential', 'mixed_use', 'planned_development'] as const;
export type Zoning = (typeof ZONINGS)[number];

export const LAND_USES = [
  'vacant',
  'pasture',
  'cropland',
  'ranchland',
  'single_family',
  'multi_family',
  'retail',
  'office',
  'warehouse',
  'light_industrial',
  'heavy_industrial',
] as const;
export type LandUse = (typeof LAND_USES)[number];

export const LISTING_STATUSES = ['listed', 'off_market', 'under_contract'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export class ParcelFacts {
  apn = '';
  address = '';
  owner_name = '';
  zoning: Zoning = 'agricultural';
  land_use: LandUse = 'vacant';
  acres = 0;
  developable_acres = 0;
  assessed_value_usd = 0;

  elevation = 0;
  slope_degrees = 0;
  aspect_degrees = 0;
  aspect_cardinal = 'N';
  within_floodplain_polygon = false;
  intersects_wetland = false;
  nearest_wetland_distance_m: number | null = null;
  soil_shrink_swell_class: string | null = null;
  prime_farmland_classification: string | null = null;
  tree_canopy_pct: number | null = null;
  nearest_major_road_name: string | null = null;
  nearest_major_road_distance_m: number | null = null;
  in_opportunity_zone = false;
  nearest_transmission_line_distance_m = 0;
  nearest_transmission_line_voltage_kv = 0;
  transmission_lines_within_radius_count = 0;
  nearest_gas_pipeline_distance_m = 0;
  nearest_gas_pipeline_operator = '';
  nearest_rail_line_distance_m: number | null = null;
  nearest_substation_distance_m: number | null = null;
  nearest_substation_max_voltage_kv: number | null = null;
  substations_within_radius_count: number | null = null;
  substations_radius_m: number | null = null;
  electric_utility_service_territory: string | null = null;
  avg_retail_electricity_price_industrial_usd_per_kwh: number | null = null;
  grid_price_usd_per_mwh: number | null = null;
  fiber_provider_count: number | null = null;
  fiber_broadband_available: boolean | null = null;
  ghi_annual_kwh_m2_day: number | null = null;
  mean_wind_speed_100m_ms: number | null = null;
  drought_category: string | null = null;
  seismic_design_category: string | null = null;
  housing_units_within_1km: number | null = null;
  housing_units_density_per_km2: number | null = null;

  school_district = '';
  last_sale_year: number | null = null;
  listing_status: ListingStatus = 'off_market';

  /** What a parcel file carries without point data: the typed record facts and the free facts. */
  toRecordProperties(): Record<string, unknown> {
    return {
      apn: this.apn,
      address: this.address,
      owner_name: this.owner_name,
      zoning: this.zoning,
      land_use: this.land_use,
      acres: this.acres,
      developable_acres: this.developable_acres,
      assessed_value_usd: this.assessed_value_usd,
      school_district: this.school_district,
      last_sale_year: this.last_sale_year,
      listing_status: this.listing_status,
    };
  }

  toProperties(): Record<string, unknown> {
    return {
      apn: this.apn,
      address: this.address,
      owner_name: this.owner_name,
      zoning: this.zoning,
      land_use: this.land_use,
      acres: this.acres,
      developable_acres: this.developable_acres,
      assessed_value_usd: this.assessed_value_usd,
      elevation: this.elevation,
      slope_degrees: this.slope_degrees,
      aspect_degrees: this.aspect_degrees,
      aspect_cardinal: this.aspect_cardinal,
      within_floodplain_polygon: this.within_floodplain_polygon,
      intersects_wetland: this.intersects_wetland,
      nearest_wetland_distance_m: this.nearest_wetland_distance_m,
      soil_shrink_swell_class: this.soil_shrink_swell_class,
      prime_farmland_classification: this.prime_farmland_classification,
      tree_canopy_pct: this.tree_canopy_pct,
      nearest_major_road_name: this.nearest_major_road_name,
      nearest_major_road_distance_m: this.nearest_major_road_distance_m,
      in_opportunity_zone: this.in_opportunity_zone,
      nearest_transmission_line_distance_m: this.nearest_transmission_line_distance_m,
      nearest_transmission_line_voltage_kv: this.nearest_transmission_line_voltage_kv,
      transmission_lines_within_radius_count: this.transmission_lines_within_radius_count,
      nearest_gas_pipeline_distance_m: this.nearest_gas_pipeline_distance_m,
      nearest_gas_pipeline_operator: this.nearest_gas_pipeline_operator,
      nearest_rail_line_distance_m: this.nearest_rail_line_distance_m,
      nearest_substation_distance_m: this.nearest_substation_distance_m,
      nearest_substation_max_voltage_kv: this.nearest_substation_max_voltage_kv,
      substations_within_radius_count: this.substations_within_radius_count,
      substations_radius_m: this.substations_radius_m,
      electric_utility_service_territory: this.electric_utility_service_territory,
      avg_retail_electricity_price_industrial_usd_per_kwh: this.avg_retail_electricity_price_industrial_usd_per_kwh,
      grid_price_usd_per_mwh: this.grid_price_usd_per_mwh,
      fiber_provider_count: this.fiber_provider_count,
      fiber_broadband_available: this.fiber_broadband_available,
      ghi_annual_kwh_m2_day: this.ghi_annual_kwh_m2_day,
      mean_wind_speed_100m_ms: this.mean_wind_speed_100m_ms,
      drought_category: this.drought_category,
      seismic_design_category: this.seismic_design_category,
      housing_units_within_1km: this.housing_units_within_1km,
      housing_units_density_per_km2: this.housing_units_density_per_km2,
      school_district: this.school_district,
      last_sale_year: this.last_sale_year,
      listing_status: this.listing_status,
    };
  }
}

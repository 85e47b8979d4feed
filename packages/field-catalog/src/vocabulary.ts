// The closed vocabularies of the catalog, in the spec's order. Everything else in the package
// is typed against these so that a misspelt layer or preset fails to compile.

export const LAYERS = [
  'terrain',
  'land_cover',
  'built_environment',
  'utilities',
  'parcels',
  'climate',
  'hazards',
] as const;
export type Layer = (typeof LAYERS)[number];

/** Preset short codes of the spec's field tables, mapped to the full preset names. */
export const PRESET_CODES = {
  ter: 'terrain',
  fld: 'flood_risk',
  wfu: 'wildfire_underwrite',
  sit: 'site_selection',
  wnd: 'wind_siting',
  sol: 'solar_siting',
  sto: 'storage_siting',
  dc: 'data_center_siting',
  nh: 'natural_hazard',
  lc: 'land_cover',
  bld: 'building_lookup',
  utl: 'utilities',
  grd: 'grid_interconnect',
  bnd: 'boundaries',
} as const;
export type PresetCode = keyof typeof PRESET_CODES;
export type Preset = (typeof PRESET_CODES)[PresetCode];

/** Every preset name, in the order the spec lists the codes. */
export const PRESETS: readonly Preset[] = Object.freeze(Object.values(PRESET_CODES));

/** ttl codes of the spec's field tables, in seconds. */
export const TTL_CODES = {
  Y: 31_536_000,
  M: 2_592_000,
  W: 604_800,
  D: 86_400,
  B: 5_184_000,
} as const;
export type TtlCode = keyof typeof TTL_CODES;

/** `str` is kept apart from `string` because the spec's tables spell a few fields that way. */
export const FIELD_TYPES = ['float', 'int', 'bool', 'string', 'str'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The only metered group the spec defines. */
export const PARCEL_RECORD_GROUP = 'parcel_record' as const;
export type MeteredGroup = typeof PARCEL_RECORD_GROUP;

export function isLayer(value: string): value is Layer {
  return (LAYERS as readonly string[]).includes(value);
}

export function isPreset(value: string): value is Preset {
  return (PRESETS as readonly string[]).includes(value);
}

// Attribute names publishers give the properties our sources read, beyond the property's own name
// (matched case- and punctuation-insensitively), for the --map `landscreen inspect --source`
// proposes. From the public files the README's layer walk-through names: HIFLD (substations,
// transmission lines, service territories), EIA-860 and its Energy Atlas layer, USFWS NWI,
// Census TIGER/Line, USGS USWTDB, EIA-861 joins.

export const PUBLISHER_NAMES: Readonly<Record<string, readonly string[]>> = {
  name: ['NAME', 'Plant Name', 'Plant_Name', 'PLANT_NAME', 'FACILITY_NAME', 'SITE_NAME', 'FULLNAME'],
  max_voltage_kv: ['MAX_VOLT', 'MAXVOLT', 'MAX_VOLTAGE'],
  voltage_kv: ['VOLTAGE', 'VOLT', 'KV'],
  voltage_class: ['VOLT_CLASS', 'VOLTCLASS'],
  status: ['STATUS', 'STAT'],
  owner: ['OWNER', 'OWNER_NAME'],
  capacity_mw: ['Nameplate Capacity (MW)', 'Total_MW', 'TOTAL_MW', 'Install_MW', 'NAMEPLATE_CAPACITY', 'CAPACITY', 'p_cap'],
  primary_fuel: ['PrimSource', 'PRIM_SOURCE', 'Energy Source 1', 'ENERGY_SOURCE_1', 'FUEL'],
  wetland_type: ['WETLAND_TYPE', 'WETLANDTYPE'],
  wetland_subtype: ['ATTRIBUTE'],
  tract_geoid: ['GEOID', 'GEOID20', 'GEOID10', 'TRACTCE'],
  county: ['NAMELSAD', 'COUNTY', 'COUNTY_NAME', 'CNTY_NAME', 'NAME'],
  region: ['STUSPS', 'STATE', 'STATE_ABBR', 'ST'],
  locality: ['PLACE', 'CITY', 'PLACENAME'],
  utility_name: ['NAME', 'UTILITY', 'UTILITY_NAME'],
  industrial_usd_per_kwh: ['IND_PRICE', 'INDUSTRIAL_PRICE'],
  hub_height_m: ['t_hh'],
  total_height_m: ['t_ttlh'],
  project_capacity_mw: ['p_cap'],
  operator: ['OPERATOR', 'Operator'],
  pipeline_type: ['TYPEPIPE', 'PIPE_TYPE'],
};

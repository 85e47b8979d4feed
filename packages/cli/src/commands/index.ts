import type { Command } from './command.js';

// Every operator command that works on the database (serve is handled by main). This table is all
// `--help` and argument parsing load; each command's module is imported when it runs.
export const COMMANDS: Command[] = [
  {
    words: ['migrate'],
    summary: "Apply every service's pending migrations to its schema",
    usage: 'landscreen migrate',
    services: ['auth', 'discovery', 'pipeline', 'diligence', 'catalog'],
    load: async () => (await import('./migrate.js')).migrateCommand,
  },
  {
    words: ['tenant', 'create'],
    summary: 'Create a tenant (an organization, addressed by its slug)',
    usage: 'landscreen tenant create --slug SLUG --name NAME',
    services: ['auth'],
    load: async () => (await import('./tenant-create.js')).tenantCreateCommand,
  },
  {
    words: ['member', 'add'],
    summary: 'Add an email to a tenant with a role (or change its role)',
    // The roles of D3 (auth's ROLES; commands/index.test.ts keeps the two equal).
    usage: 'landscreen member add --tenant SLUG --email EMAIL --role admin|analyst|viewer|worker',
    services: ['auth'],
    load: async () => (await import('./member-add.js')).memberAddCommand,
  },
  {
    words: ['service-token', 'create'],
    summary: 'Create a service token for utility findings (prints the secret once)',
    usage: 'landscreen service-token create --tenant SLUG --name NAME',
    services: ['auth'],
    load: async () => (await import('./service-token-create.js')).serviceTokenCreateCommand,
  },
  {
    words: ['entitle'],
    summary: 'Entitle a tenant to a market (D16)',
    usage: 'landscreen entitle --tenant SLUG --market SLUG',
    services: ['auth', 'discovery'],
    load: async () => (await import('./entitle.js')).entitleCommand,
  },
  {
    words: ['plan', 'set'],
    summary: 'Put a tenant on a plan (D34): its credit allowance, rpm and resolve price from now on',
    usage: 'landscreen plan set --tenant SLUG --plan free|build|growth|scale|market',
    services: ['auth', 'catalog'],
    load: async () => (await import('./plan-set.js')).planSetCommand,
  },
  {
    words: ['import', 'parcels'],
    summary: "Load a market's parcels (GeoJSON, NDJSON or CSV) as a new vintage",
    usage: 'landscreen import parcels --market SLUG [--name NAME] --file PATH [--format geojson|ndjson|csv]',
    services: ['discovery'],
    load: async () => (await import('./import-parcels.js')).importParcelsCommand,
  },
  {
    words: ['import', 'layer'],
    summary: 'Load a GIS layer file as a new version of a point-data source',
    usage:
      'landscreen import layer --source SOURCE --file PATH [--file PATH ...] [--format FORMAT] [--layer NAME] [--sheet NAME] [--header-row N] ' +
      '[--map attr=property,...] [--where EXPRESSION] [--name NAME] (FORMAT: geojson|ndjson|csv|shapefile|gpkg|filegdb|flatgeobuf|kml|kmz|xlsx|geotiff, ' +
      'told from the content when absent; a grid source takes GeoTIFF tiles, --file repeated or a folder of them, as one version; ' +
      "--where keeps the features whose file attributes match, e.g. \"FLD_ZONE IN ('A', 'AE') AND STATUS LIKE 'ACT%'\" " +
      '(=, !=, <, <=, >, >=, IN, LIKE, IS NULL, AND, OR, NOT); limits: LAYER_MAX_FEATURES, LAYER_MAX_CELLS, LAYER_MAX_ATTRIBUTE_BYTES, ' +
      'LAYER_MAX_VERTICES, LAYER_MAX_DEPTH, LAYER_MAX_ZIP_RATIO, LAYER_MAX_ZIP_BYTES)',
    services: ['catalog'],
    load: async () => (await import('./import-layer.js')).importLayerCommand,
  },
  {
    words: ['inspect'],
    summary: "List a layer file's layers, geometry kinds, CRS, counts and attributes; propose a --map",
    usage: 'landscreen inspect FILE [--source SOURCE] [--header-row N]',
    services: [],
    needsDatabase: false,
    load: async () => (await import('./inspect.js')).inspectCommand,
  },
  {
    words: ['layers'],
    summary: 'List the loaded layer versions of the point-data sources',
    usage: 'landscreen layers',
    services: ['catalog'],
    load: async () => (await import('./layers.js')).layersCommand,
  },
  {
    words: ['prepare'],
    summary: "Screen a market's current parcels on the loaded layers into a new vintage",
    usage: 'landscreen prepare --market SLUG [--fields f1,f2,...|--preset NAME] [--workers]',
    services: ['discovery', 'catalog'],
    load: async () => (await import('./prepare.js')).prepareCommand,
  },
  {
    words: ['demo'],
    summary: 'Load the synthetic demo market from a parcel file and layers, entitled to the demo tenant',
    usage: 'landscreen demo [--parcels N] [--seed S] [--market SLUG] [--layers-dir DIR]',
    services: ['auth', 'discovery', 'catalog'],
    load: async () => (await import('./demo.js')).demoCommand,
  },
];

/** The command whose words start argv, longest match first, and the remaining arguments. */
export function findCommand(argv: string[]): { command: Command; args: string[] } | undefined {
  const sorted = [...COMMANDS].sort((a, b) => b.words.length - a.words.length);
  for (const command of sorted) {
    if (command.words.every((word, index) => argv[index] === word)) {
      return { command, args: argv.slice(command.words.length) };
    }
  }
  return undefined;
}

export { UsageError, type Command, type CommandContext, type CommandImplementation } from './command.js';

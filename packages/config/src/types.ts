export const SERVICE_NAMES = ['auth', 'discovery', 'pipeline', 'diligence', 'catalog'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Ports each service listens on when it runs as its own process (distributed mode). */
export const DEFAULT_SERVICE_PORTS: Record<ServiceName, number> = {
  auth: 8101,
  discovery: 8102,
  pipeline: 8103,
  diligence: 8104,
  catalog: 8105,
};

export interface Config {
  /** Port of the public REST gateway. */
  port: number;
  /** Interface every listener binds to. */
  host: string;
  /** Where the embedded default keeps its PGlite database and the local mailbox. */
  dataDir: string;
  /** Where discovery keeps local copies of vintage indexes; absent: `dataDir/discovery-cache`; false: none. */
  discoveryCacheDir?: string | false;
  /** PostgreSQL connection string; absent means PGlite under `dataDir`. */
  databaseUrl: string | undefined;
  /** NATS server; absent means the in-process event bus. */
  natsUrl: string | undefined;
  /**
   * Whose streams, subjects and durables on NATS: `null` (BUS_SCOPE unset or none): D27's names as
   * they are, unscoped; absent (BUS_SCOPE=auto): derived from the database at start (runtime's bus.ts).
   */
  busScope?: string | null;
  /** SMTP server for magic links; absent means `dataDir/mailbox.jsonl`. */
  smtpUrl: string | undefined;
  /** Base address that links in mail point at. */
  publicUrl: string;
  /** D40: a MapLibre style URL drawn under the console's map; absent: the state and county outlines the gateway serves. */
  basemapStyleUrl: string | undefined;
  /** D7: a bearer secret that acts as a `worker` of the X-Tenant tenant. */
  legacySharedSecret: string | undefined;
  /** D7: accept `Bearer dev:<email>[:<role>]`. On by default only in the embedded mode. */
  authDev: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** D4: session lifetime. */
  sessionTtlDays: number;
  /** Sign-in attempts allowed per 15 minutes: link requests per email and per client address, verifies per address. */
  authLimits: { linkPerEmail: number; linkPerAddress: number; verifyPerAddress: number };
  /** Where the gateway reaches each service; a missing entry means "mounted in-process". */
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** Port of each service when it is served as its own process. */
  servicePorts: Record<ServiceName, number>;
  /** How long PostgreSQL may take before an operation fails as "database unavailable" (0: no limit). */
  database: DatabaseConfig;
  /** D27: the diligence outbox relay, run by the diligence service. */
  relay: RelayConfig;
  /** The diligence worker (workers/diligence). */
  worker: WorkerConfig;
  /** Asynchronous point-data runs (D35): chunking, the chunk relay and the runs workers. */
  runs: RunsConfig;
  /** `landscreen prepare --workers` and its worker processes (`serve --prepare-worker`). */
  prepare: PrepareConfig;
  /** Grid layers: import limits and the engine's cache of their blocks. */
  grids: GridsConfig;
  /** What one layer import may hold, whatever its file claims (refusals name the variable that raises each). */
  layerLimits: LayerLimitsConfig;
  /** PDF reports (D30): the gateway's render worker threads and each document's budgets (D39). */
  reports: ReportsConfig;
  /** Prometheus metrics: the gateway serves `GET /metrics`; other processes on `port` when set. */
  metrics: MetricsConfig;
  /** Discovery's replicas: which markets each holds in memory, and how much. */
  discovery: DiscoveryConfig;
}

export interface DiscoveryConfig {
  /**
   * DISCOVERY_MEMORY_BUDGET: bytes of market indexes (ranking columns, parcel shapes, cached
   * rankings and map views) one discovery process holds; past it the least recently used market's
   * are dropped whole (the local index cache makes reloading them cheap).
   */
  memoryBudgetBytes: number;
  /**
   * DISCOVERY_LEASE_SECONDS: how long a discovery replica's hold on its markets lasts without a
   * heartbeat (it renews it five times a lease); a replica silent that long has its markets taken
   * over by the others.
   */
  leaseSeconds: number;
  /**
   * DISCOVERY_ADVERTISE_URL: where the other processes reach this discovery replica; absent: HOST
   * (or, when HOST is every interface, this machine's first non-loopback IPv4 address) and
   * DISCOVERY_PORT.
   */
  advertiseUrl: string | undefined;
  /** DISCOVERY_URL as a list (comma-separated): the replicas a caller may start from; any of them answers any request. */
  urls: string[];
}

export interface MetricsConfig {
  /** METRICS_PORT: an HTTP/1.1 port serving `GET /metrics` alone (services, workers); absent: none. */
  port: number | undefined;
  /** METRICS_TOKEN: when set, `/metrics` answers only `Authorization: Bearer <token>`. */
  token: string | undefined;
}

export interface GridsConfig {
  /** LAYER_MAX_CELLS: the most cells one grid import (all its tiles) may store; checked from the headers before any cell is read. */
  maxCells: number;
  /** LAYER_GRID_CACHE_MB: megabytes of grid blocks the engine of one process holds at once (least recently used go first). */
  cacheMb: number;
  /** LAYER_IMPORT_READERS: worker threads reading one GeoPackage of 16 MB or more at once; undefined: min(2, cores). */
  importReaders: number | undefined;
}

export interface LayerLimitsConfig {
  /** LAYER_MAX_FEATURES: features one vector import may store. */
  maxFeatures: number;
  /** LAYER_MAX_ATTRIBUTE_BYTES: bytes of one attribute value (default 64 KiB). */
  maxAttributeBytes: number;
  /** LAYER_MAX_VERTICES: positions of one feature's geometry. */
  maxVertices: number;
  /** LAYER_MAX_DEPTH: how deeply a feature's JSON may nest. */
  maxDepth: number;
  /** LAYER_MAX_ZIP_RATIO: uncompressed over compressed size of one zip entry (entries over 1 MiB). */
  maxZipRatio: number;
  /** LAYER_MAX_ZIP_BYTES: bytes one import may inflate out of a zip. */
  maxZipBytes: number;
}

export interface ReportsConfig {
  /** Render worker threads of a gateway. */
  workers: number;
  /** Longest one document may render; then its worker is replaced and the answer is 503 report_timeout. */
  timeoutMs: number;
  /** Largest document in bytes; a larger one is 422 report_too_large. */
  maxBytes: number;
}

export interface PrepareConfig {
  /** How long a delivered chunk is a prepare worker's; a chunk of a worker that died is redone after it. */
  leaseSeconds: number;
}

export interface RunsConfig {
  /** Whether `landscreen serve` (embedded) runs a runs worker in-process. */
  embedded: boolean;
  /** Locations per chunk: what a worker leases, evaluates and writes at once. */
  chunkSize: number;
  /** How long a worker's lease holds a chunk; a dead worker's chunk is redone after it. */
  leaseSeconds: number;
  /** Chunks one worker process evaluates at once. */
  concurrency: number;
}

export interface DatabaseConfig {
  /** Opening a connection, and waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** Server-side `statement_timeout`. */
  statementTimeoutMs: number;
  /** Client side: a query with no answer by then has its connection dropped (a black-holed server). */
  queryTimeoutMs: number;
  /** An idle pooled connection is closed after this long. */
  idleTimeoutMs: number;
  /** Idle time before TCP keepalive probes start. */
  keepAliveMs: number;
}

export interface RelayConfig {
  /** Pause between polls of an empty outbox: the longest a new event waits. */
  pollMs: number;
  /** Events published and marked per transaction. */
  batchSize: number;
  /** Published events older than this many hours are deleted from the outbox. */
  retentionHours: number;
}

export interface WorkerConfig {
  /** Whether `landscreen serve` (embedded) runs a worker against its own gateway. */
  embedded: boolean;
  /** Gateway a worker process calls; absent: `http://127.0.0.1:$PORT`. */
  gatewayUrl: string | undefined;
  /** Automatic daily budget per tenant, a decimal string with 4 places (never a float). */
  dailyBudgetUsd: string;
  /** `max_cost_usd` the worker authorizes each job with, a decimal string with 4 places. */
  jobMaxUsd: string;
  /** Jobs one worker process drives at once. */
  concurrency: number;
  /** Lease asked for with each claim (60-3600). */
  leaseSeconds: number;
  /** Step name → URL of an HTTP provider that runs that step instead of the built-in one. */
  providerUrls: Record<string, string>;
  /** How long an HTTP provider may take before the attempt is failed as retryable. */
  providerTimeoutMs: number;
}

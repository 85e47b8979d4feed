import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SERVICE_PORTS, SERVICE_NAMES, type Config, type ServiceName } from './types.js';

/** Thrown when the environment holds values that cannot be used; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Half the cores, at least one and at most four: the rest stays with the threads answering requests. */
const DEFAULT_REPORT_WORKERS = Math.max(1, Math.min(4, Math.floor((os.availableParallelism?.() ?? os.cpus().length) / 2)));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Reads the environment once. Handlers never read `process.env`; they get this object.
 * `overrides` lets tests and the CLI set values without touching the environment.
 */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const port = (name: string, fallback: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > 65535) {
      problems.push(`${name} must be a port number (0-65535), got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
      }
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
    return raw;
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be 1 or 0, got "${raw}"`);
    return fallback;
  };

  const gatewayPort = port('PORT', 8080);
  const host = text('HOST') ?? '127.0.0.1';
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const logLevel = (text('LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const sessionTtlDays = Number(text('SESSION_TTL_DAYS') ?? '30');
  if (!Number.isFinite(sessionTtlDays) || sessionTtlDays <= 0) problems.push('SESSION_TTL_DAYS must be a positive number');

  const count = (name: string, fallback: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) {
      problems.push(`${name} must be a positive integer, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const bounded = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  // Money stays a decimal string (4 places, numeric(12,4)); it is never parsed into a float.
  const money = (name: string, fallback: string, authorizable: boolean): string => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const match = /^(\d{1,8})(?:\.(\d{1,4}))?$/.exec(raw);
    const tenThousandths = match ? BigInt(match[1]!) * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0')) : -1n;
    if (tenThousandths < 0n || (authorizable && (tenThousandths === 0n || tenThousandths > 1_000_000n))) {
      problems.push(`${name} must be a decimal amount with at most 4 places${authorizable ? ', above 0 and at most 100' : ''}, got "${raw}"`);
      return fallback;
    }
    return `${tenThousandths / 10_000n}.${String(tenThousandths % 10_000n).padStart(4, '0')}`;
  };
  const providerUrls = (name: string): Record<string, string> => {
    const found: Record<string, string> = {};
    for (const entry of (text(name) ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
      const at = entry.indexOf('=');
      const step = entry.slice(0, at).trim();
      const address = entry.slice(at + 1).trim();
      let valid = at > 0 && /^[a-z][a-z0-9_]*$/.test(step);
      try {
        valid &&= ['http:', 'https:'].includes(new URL(address).protocol);
      } catch {
        valid = false;
      }
      if (valid) found[step] = address;
      else problems.push(`${name} must be a comma-separated list of step=http(s)://url, got "${entry}"`);
    }
    return found;
  };
  const authLimits = {
    linkPerEmail: count('AUTH_LINK_LIMIT_PER_EMAIL', 5),
    linkPerAddress: count('AUTH_LINK_LIMIT_PER_ADDRESS', 100),
    verifyPerAddress: count('AUTH_VERIFY_LIMIT_PER_ADDRESS', 300),
  };

  // Bulk work (imports, migrations) lifts the query timeouts itself (@landscreen/db liftTimeouts).
  const database = {
    connectTimeoutMs: bounded('DB_CONNECT_TIMEOUT_MS', 5_000, 1, 600_000),
    statementTimeoutMs: bounded('DB_STATEMENT_TIMEOUT_MS', 30_000, 0, 86_400_000),
    queryTimeoutMs: bounded('DB_QUERY_TIMEOUT_MS', 35_000, 0, 86_400_000),
    idleTimeoutMs: bounded('DB_IDLE_TIMEOUT_MS', 10_000, 0, 86_400_000),
    keepAliveMs: bounded('DB_KEEPALIVE_MS', 10_000, 0, 86_400_000),
  };
  const relay = {
    pollMs: bounded('RELAY_POLL_MS', 100, 1, 60_000),
    batchSize: bounded('RELAY_BATCH_SIZE', 500, 1, 10_000),
    retentionHours: bounded('OUTBOX_RETENTION_HOURS', 168, 1, 87_600),
  };
  const worker = {
    embedded: flag('WORKER_EMBEDDED', true),
    gatewayUrl: url('WORKER_GATEWAY_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    dailyBudgetUsd: money('WORKER_DAILY_BUDGET_USD', '25.0000', false),
    // Authorize takes more than 0 and at most 100 (the spec's AuthorizeRequest).
    jobMaxUsd: money('WORKER_JOB_MAX_USD', '5.0000', true),
    concurrency: bounded('WORKER_CONCURRENCY', 4, 1, 256),
    leaseSeconds: bounded('WORKER_LEASE_SECONDS', 300, 60, 3600),
    providerUrls: providerUrls('WORKER_PROVIDERS'),
    providerTimeoutMs: bounded('WORKER_PROVIDER_TIMEOUT_MS', 10_000, 1, 600_000),
  };

  const runs = {
    embedded: flag('RUNS_WORKER_EMBEDDED', true),
    chunkSize: bounded('RUNS_CHUNK_SIZE', 1_000, 10, 10_000),
    leaseSeconds: bounded('RUNS_LEASE_SECONDS', 60, 1, 3_600),
    concurrency: bounded('RUNS_WORKER_CONCURRENCY', 2, 1, 64),
  };

  const prepare = {
    leaseSeconds: bounded('PREPARE_LEASE_SECONDS', 120, 1, 3_600),
  };

  // Grid layers (D38): the most cells one import may store, and the engine's cache of grid blocks.
  const grids = {
    maxCells: bounded('LAYER_MAX_CELLS', 500_000_000, 1, Number.MAX_SAFE_INTEGER),
    cacheMb: bounded('LAYER_GRID_CACHE_MB', 512, 16, 1_048_576),
    // Worker threads reading one large GeoPackage at once; unset: up to 2, by the cores.
    importReaders: text('LAYER_IMPORT_READERS') === undefined ? undefined : bounded('LAYER_IMPORT_READERS', 1, 1, 4),
  };

  // Vector layer imports: the defaults match @landscreen/layer-io's DEFAULT_IMPORT_LIMITS.
  const layerLimits = {
    maxFeatures: bounded('LAYER_MAX_FEATURES', 20_000_000, 1, Number.MAX_SAFE_INTEGER),
    maxAttributeBytes: bounded('LAYER_MAX_ATTRIBUTE_BYTES', 64 * 1024, 1, 2 ** 30),
    maxVertices: bounded('LAYER_MAX_VERTICES', 5_000_000, 1, Number.MAX_SAFE_INTEGER),
    maxDepth: bounded('LAYER_MAX_DEPTH', 32, 6, 10_000),
    maxZipRatio: bounded('LAYER_MAX_ZIP_RATIO', 200, 1, 100_000),
    maxZipBytes: bounded('LAYER_MAX_ZIP_BYTES', 32 * 2 ** 30, 1, Number.MAX_SAFE_INTEGER),
  };

  // PDF reports render on worker threads of the gateway (D39), each document within these budgets.
  const reports = {
    workers: bounded('REPORT_WORKERS', DEFAULT_REPORT_WORKERS, 1, 16),
    timeoutMs: bounded('REPORT_TIMEOUT_MS', 60_000, 1_000, 600_000),
    maxBytes: bounded('REPORT_MAX_BYTES', 64 * 1024 * 1024, 1024 * 1024, 1024 * 1024 * 1024),
  };

  // Prometheus: every process may serve /metrics on a port of its own; the gateway also on its own.
  const metrics = {
    port: text('METRICS_PORT') === undefined ? undefined : port('METRICS_PORT', 0),
    token: text('METRICS_TOKEN'),
  };

  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  const servicePorts = { ...DEFAULT_SERVICE_PORTS };
  // Discovery may be several replicas, any of which answers any request: its address is a list.
  const discoveryUrls = urlList('DISCOVERY_URL', text('DISCOVERY_URL'), problems);
  for (const name of SERVICE_NAMES) {
    const upper = name.toUpperCase();
    const serviceUrl = name === 'discovery' ? discoveryUrls[0] : url(`${upper}_URL`, ['http:', 'https:']);
    if (serviceUrl) serviceUrls[name] = serviceUrl;
    servicePorts[name] = port(`${upper}_PORT`, DEFAULT_SERVICE_PORTS[name]);
  }

  const discovery = {
    memoryBudgetBytes: byteSize('DISCOVERY_MEMORY_BUDGET', text('DISCOVERY_MEMORY_BUDGET'), 4 * 2 ** 30, problems),
    leaseSeconds: bounded('DISCOVERY_LEASE_SECONDS', 10, 1, 600),
    advertiseUrl: url('DISCOVERY_ADVERTISE_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    urls: discoveryUrls,
  };

  const config: Config = {
    port: gatewayPort,
    host,
    dataDir: path.resolve(text('DATA_DIR') ?? '.data'),
    discoveryCacheDir: discoveryCacheDir(text('DISCOVERY_CACHE_DIR')),
    databaseUrl,
    natsUrl: url('NATS_URL', ['nats:', 'tls:', 'ws:', 'wss:']),
    busScope: busScope(text('BUS_SCOPE'), problems),
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    publicUrl: (url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${gatewayPort}`).replace(/\/+$/, ''),
    basemapStyleUrl: url('BASEMAP_STYLE_URL', ['http:', 'https:']),
    legacySharedSecret: text('LEGACY_SHARED_SECRET'),
    // D7: dev sessions are on in the embedded default (no DATABASE_URL) and off elsewhere unless set.
    authDev: flag('AUTH_DEV', databaseUrl === undefined),
    logLevel,
    sessionTtlDays,
    authLimits,
    database,
    serviceUrls,
    servicePorts,
    relay,
    worker,
    runs,
    prepare,
    grids,
    layerLimits,
    reports,
    metrics,
    discovery,
    ...overrides,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** `off` turns the cache off; absent stays absent, so it follows a dataDir given as an override (tests). */
const discoveryCacheDir = (raw: string | undefined): string | false | undefined => (raw === undefined ? undefined : raw === 'off' ? false : path.resolve(raw));

/** A comma-separated list of http(s) addresses (trailing slashes dropped); each bad one is a problem. */
function urlList(name: string, raw: string | undefined, problems: string[]): string[] {
  const urls: string[] = [];
  for (const entry of (raw ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
    let valid = false;
    try {
      valid = ['http:', 'https:'].includes(new URL(entry).protocol);
    } catch {
      valid = false;
    }
    if (valid) urls.push(entry.replace(/\/+$/, ''));
    else problems.push(`${name} must be an http(s) URL or a comma-separated list of them, got "${entry}"`);
  }
  return urls;
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

/** A size in bytes: a whole number, optionally with a unit (`512MiB`, `4GiB`, `2GB`). */
function byteSize(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw);
  const unit = match ? BYTE_UNITS[match[2]!.toLowerCase()] : undefined;
  const value = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    problems.push(`${name} must be a number of bytes, optionally with a unit (KiB, MiB, GiB, TiB, KB, MB, GB, TB), got "${raw}"`);
    return fallback;
  }
  return value;
}

/**
 * BUS_SCOPE: one token of NATS names; `auto` for one derived from the database; unset or `none`
 * for none, D27's names as they are (see @landscreen/events' scope.ts).
 */
function busScope(raw: string | undefined, problems: string[]): string | null | undefined {
  if (raw === undefined || raw === '' || raw === 'none') return null;
  if (raw === 'auto') return undefined;
  if (/^[A-Za-z0-9_-]{1,32}$/.test(raw)) return raw;
  problems.push(`BUS_SCOPE must be letters, digits, _ and - (at most 32), auto or none; got "${raw}"`);
  return undefined;
}

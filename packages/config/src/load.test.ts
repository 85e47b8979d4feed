import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

describe('loadConfig', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.natsUrl).toBeUndefined();
    expect(config.authDev).toBe(true);
    expect(config.dataDir.endsWith('.data')).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.servicePorts.auth).toBe(8101);
  });

  it('turns dev sessions off when a database is configured, unless asked for', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).authDev).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', AUTH_DEV: '1' }).authDev).toBe(true);
  });

  it('reads BUS_SCOPE: absent or none (D27\'s names), auto (derived from the database), or a name', () => {
    expect(loadConfig({}).busScope).toBeNull();
    expect(loadConfig({ BUS_SCOPE: 'auto' }).busScope).toBeUndefined();
    expect(loadConfig({ BUS_SCOPE: 'staging-2' }).busScope).toBe('staging-2');
    expect(loadConfig({ BUS_SCOPE: 'none' }).busScope).toBeNull();
    expect(() => loadConfig({ BUS_SCOPE: 'a.b' })).toThrow(/BUS_SCOPE/);
  });

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', AUTH_DEV: 'maybe' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(3);
    }
  });

  it('reads service addresses for the distributed gateway', () => {
    const config = loadConfig({ AUTH_URL: 'http://127.0.0.1:9001', CATALOG_PORT: '9005' });
    expect(config.serviceUrls).toEqual({ auth: 'http://127.0.0.1:9001' });
    expect(config.servicePorts.catalog).toBe(9005);
  });

  it('reads relay and worker settings, money as 4-place decimal strings', () => {
    const defaults = loadConfig({});
    expect(defaults.relay).toEqual({ pollMs: 100, batchSize: 500, retentionHours: 168 });
    expect(defaults.worker).toMatchObject({ embedded: true, dailyBudgetUsd: '25.0000', jobMaxUsd: '5.0000', leaseSeconds: 300, providerUrls: {} });
    const config = loadConfig({
      WORKER_DAILY_BUDGET_USD: '7.5',
      WORKER_JOB_MAX_USD: '0.25',
      WORKER_PROVIDERS: 'owner_contact=http://127.0.0.1:9000/contact, report=https://r.example/run',
      WORKER_GATEWAY_URL: 'http://gateway:8080/',
    });
    expect(config.worker.dailyBudgetUsd).toBe('7.5000');
    expect(config.worker.jobMaxUsd).toBe('0.2500');
    expect(config.worker.gatewayUrl).toBe('http://gateway:8080');
    expect(config.worker.providerUrls).toEqual({ owner_contact: 'http://127.0.0.1:9000/contact', report: 'https://r.example/run' });
  });

  it('refuses money with more than 4 places, a job maximum above 100, a lease under 60 s', () => {
    try {
      loadConfig({ WORKER_DAILY_BUDGET_USD: '1.23456', WORKER_JOB_MAX_USD: '100.0001', WORKER_LEASE_SECONDS: '30', WORKER_PROVIDERS: 'report' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(4);
    }
  });

  it('reads the database timeouts: bounded defaults, 0 lifts a limit, nonsense is refused', () => {
    expect(loadConfig({}).database).toEqual({ connectTimeoutMs: 5000, statementTimeoutMs: 30000, queryTimeoutMs: 35000, idleTimeoutMs: 10000, keepAliveMs: 10000 });
    const config = loadConfig({ DB_CONNECT_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '0', DB_QUERY_TIMEOUT_MS: '2500' });
    expect(config.database).toMatchObject({ connectTimeoutMs: 1000, statementTimeoutMs: 0, queryTimeoutMs: 2500 });
    try {
      loadConfig({ DB_CONNECT_TIMEOUT_MS: '0', DB_QUERY_TIMEOUT_MS: 'soon' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it('reads the report budgets: bounded defaults, nonsense refused with the variable named', () => {
    const defaults = loadConfig({}).reports;
    expect(defaults.workers).toBeGreaterThanOrEqual(1);
    expect(defaults.workers).toBeLessThanOrEqual(4);
    expect(defaults).toMatchObject({ timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 });
    expect(loadConfig({ REPORT_WORKERS: '3', REPORT_TIMEOUT_MS: '5000', REPORT_MAX_BYTES: '2097152' }).reports).toEqual({ workers: 3, timeoutMs: 5_000, maxBytes: 2_097_152 });
    expect(() => loadConfig({ REPORT_WORKERS: '0', REPORT_TIMEOUT_MS: 'soon' })).toThrow(/REPORT_WORKERS.*\n.*REPORT_TIMEOUT_MS/s);
  });

  it('reads discovery placement: a list of replica addresses, a memory budget with units, the lease', () => {
    expect(loadConfig({}).discovery).toEqual({ memoryBudgetBytes: 4 * 2 ** 30, leaseSeconds: 10, advertiseUrl: undefined, urls: [] });
    const config = loadConfig({
      DISCOVERY_URL: 'http://d1:8102/, http://d2:8102',
      DISCOVERY_MEMORY_BUDGET: '512MiB',
      DISCOVERY_LEASE_SECONDS: '3',
      DISCOVERY_ADVERTISE_URL: 'http://10.0.0.7:8102/',
    });
    expect(config.discovery).toEqual({ memoryBudgetBytes: 512 * 2 ** 20, leaseSeconds: 3, advertiseUrl: 'http://10.0.0.7:8102', urls: ['http://d1:8102', 'http://d2:8102'] });
    // The first replica is where a caller that knows one address goes.
    expect(config.serviceUrls.discovery).toBe('http://d1:8102');
    expect(loadConfig({ DISCOVERY_MEMORY_BUDGET: '1073741824' }).discovery.memoryBudgetBytes).toBe(2 ** 30);
    expect(() => loadConfig({ DISCOVERY_URL: 'http://d1:8102,ftp://d2', DISCOVERY_MEMORY_BUDGET: 'lots', DISCOVERY_LEASE_SECONDS: '0' })).toThrow(
      /DISCOVERY_URL.*ftp:\/\/d2.*\n.*DISCOVERY_MEMORY_BUDGET.*\n.*DISCOVERY_LEASE_SECONDS/s,
    );
  });
});

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
});

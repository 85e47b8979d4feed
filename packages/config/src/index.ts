export { loadConfig, ConfigError } from './load.js';
export type { Config, DatabaseConfig, DiscoveryConfig, GridsConfig, LayerLimitsConfig, RelayConfig, ReportsConfig, PrepareConfig, RunsConfig, ServiceName, WorkerConfig } from './types.js';
export { SERVICE_NAMES, DEFAULT_SERVICE_PORTS } from './types.js';

export { startEmbeddedStack, type EmbeddedStack, type EmbeddedStackOptions } from './stack.js';
export { createModules, migrateModules, MIGRATION_PLAN, SERVICE_FACTORIES } from './modules.js';
export { startServiceProcess } from './service-process.js';
export { startGatewayProcess } from './gateway-process.js';
export { migratedPGliteTemplate, migrationsFingerprint } from './pglite-template.js';
export { busScope, openDeploymentBus } from './bus.js';

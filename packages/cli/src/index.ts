export { main } from './main.js';
export { startEmbeddedStack, type EmbeddedStack, type EmbeddedStackOptions } from './runtime/stack.js';
export { createModules, migrateModules, MIGRATION_PLAN, SERVICE_FACTORIES } from './runtime/modules.js';
export { startServiceProcess } from './runtime/service-process.js';
export { startGatewayProcess } from './runtime/gateway-process.js';
export { runCommand } from './commands/run.js';
export { migratedPGliteTemplate, migrationsFingerprint } from './runtime/pglite-template.js';

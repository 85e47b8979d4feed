// Bootstrap of a prepare engine worker (engine-pool.ts): worker threads do not inherit the tsx
// loader the CLI registers, so this plain module registers it before loading the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./engine-worker.ts');

// Bootstrap of a PDF render worker when the gateway runs from its TypeScript sources (see
// ../worker-pool/entry.ts): worker threads do not inherit the tsx loader, so this registers it
// before loading the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./render-worker.ts');

// The first module of a worker thread started from the sources (start-worker.ts): registers tsx's
// loader in this thread, then imports the TypeScript entry the starter put first in the worker's
// arguments (and takes it out again, so the worker sees the arguments it was given).
import { register } from 'tsx/esm/api';

register();
const [entry] = process.argv.splice(2, 1);
await import(entry);

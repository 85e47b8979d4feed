export { startWorker } from './start-worker.js';

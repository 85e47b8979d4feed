// A worker for start-worker.test.ts: TypeScript (it cannot run without a loader), answering what
// it was given and the export conditions its thread resolves with.
import { parentPort, workerData } from 'node:worker_threads';

const doubled: number = (workerData as number) * 2;
parentPort!.postMessage({ doubled, argv: process.argv.slice(2), sourceCondition: process.execArgv.includes('--conditions=@landscreen/source') });

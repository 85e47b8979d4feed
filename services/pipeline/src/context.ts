import { createClient, type Client } from '@connectrpc/connect';
import { discoveryv1, diligencev1 } from '@landscreen/proto';
import type { Clock, FaultInjector, Logger, ServiceDeps } from '@landscreen/rpc';
import { pipelineDb, type PipelineDb } from './schema.js';

export interface PipelineContext {
  db: PipelineDb;
  /** The time of every change the pipeline records (notes, verdicts, fulfilled lead requests). */
  clock: Clock;
  logger: Logger;
  /** Parcels and their evaluation come from discovery, over Connect (D19). */
  discovery: Client<typeof discoveryv1.DiscoveryService>;
  /** The property page's diligence result and contacts (D28). */
  diligence: Client<typeof diligencev1.DiligenceService>;
  fault: FaultInjector;
}

export function pipelineContext(deps: ServiceDeps): PipelineContext {
  return {
    db: pipelineDb(deps.db),
    clock: deps.clock,
    logger: deps.logger.child({ service: 'pipeline' }),
    discovery: createClient(discoveryv1.DiscoveryService, deps.peer('discovery')),
    diligence: createClient(diligencev1.DiligenceService, deps.peer('diligence')),
    fault: deps.faults ?? (() => undefined),
  };
}

import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { pipelinev1 } from '@landscreen/proto';

/** What implements PipelineService: the handlers' types are named from it. */
export type PipelineImpl = ServiceImpl<typeof pipelinev1.PipelineService>;

/** Mounts the PipelineService implementation on a Connect router. */
export function pipelineRoutes(impl: PipelineImpl) {
  return (router: ConnectRouter) => {
    router.service(pipelinev1.PipelineService, impl);
  };
}

import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { pipelinev1 } from '@landscreen/proto';

/** Mounts the PipelineService implementation on a Connect router. */
export function pipelineRoutes(impl: ServiceImpl<typeof pipelinev1.PipelineService>) {
  return (router: ConnectRouter) => {
    router.service(pipelinev1.PipelineService, impl);
  };
}

import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { diligencev1 } from '@landscreen/proto';

/** Mounts the DiligenceService implementation on a Connect router. */
export function diligenceRoutes(impl: ServiceImpl<typeof diligencev1.DiligenceService>) {
  return (router: ConnectRouter) => {
    router.service(diligencev1.DiligenceService, impl);
  };
}

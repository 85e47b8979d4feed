import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { diligencev1 } from '@landscreen/proto';

/** What implements DiligenceService: the handlers' types are named from it. */
export type DiligenceImpl = ServiceImpl<typeof diligencev1.DiligenceService>;

/** Mounts the DiligenceService implementation on a Connect router. */
export function diligenceRoutes(impl: DiligenceImpl) {
  return (router: ConnectRouter) => {
    router.service(diligencev1.DiligenceService, impl);
  };
}

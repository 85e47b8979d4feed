import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { discoveryv1 } from '@landscreen/proto';

/** Mounts the DiscoveryService implementation on a Connect router. */
export function discoveryRoutes(impl: ServiceImpl<typeof discoveryv1.DiscoveryService>) {
  return (router: ConnectRouter) => {
    router.service(discoveryv1.DiscoveryService, impl);
  };
}

import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { catalogv1 } from '@landscreen/proto';

/** Mounts the CatalogService implementation on a Connect router. */
export function catalogRoutes(impl: ServiceImpl<typeof catalogv1.CatalogService>) {
  return (router: ConnectRouter) => {
    router.service(catalogv1.CatalogService, impl);
  };
}

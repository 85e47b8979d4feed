import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { catalogv1 } from '@landscreen/proto';

/** What implements CatalogService: the handlers' types are named from it. */
export type CatalogImpl = ServiceImpl<typeof catalogv1.CatalogService>;

/** Mounts the CatalogService implementation on a Connect router. */
export function catalogRoutes(impl: CatalogImpl) {
  return (router: ConnectRouter) => {
    router.service(catalogv1.CatalogService, impl);
  };
}

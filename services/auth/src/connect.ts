import type { ConnectRouter } from '@connectrpc/connect';
import type { ServiceImpl } from '@connectrpc/connect';
import { authv1 } from '@landscreen/proto';

/** Mounts the AuthService implementation on a Connect router. */
export function authRoutes(impl: ServiceImpl<typeof authv1.AuthService>) {
  return (router: ConnectRouter) => {
    router.service(authv1.AuthService, impl);
  };
}

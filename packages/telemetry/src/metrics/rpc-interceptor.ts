import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { rpcServerSeconds } from './http.js';

/** Times each call a service answers over the network, by method and Connect code. */
export const rpcMetricsInterceptor: Interceptor = (next) => async (request) => {
  const stop = rpcServerSeconds.startTimer({ method: `${request.service.typeName}/${request.method.name}` });
  try {
    const response = await next(request);
    stop({ code: 'ok' });
    return response;
  } catch (error) {
    stop({ code: Code[ConnectError.from(error).code] ?? 'unknown' });
    throw error;
  }
};

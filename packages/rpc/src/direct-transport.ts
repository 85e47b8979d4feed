import { create, isMessage, type DescMessage, type DescMethod, type DescMethodUnary, type DescService, type MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError, createContextValues, createHandlerContext, type ConnectRouter, type ContextValues, type HandlerContext, type Interceptor, type Transport, type UnaryRequest, type UnaryResponse } from '@connectrpc/connect';
import { tracingClientInterceptor, tracingEnabled, tracingServerInterceptor } from '@landscreen/telemetry';
import { toServiceError } from './database-outage.js';
import { roundTripChecked } from './message-check.js';
import type { ServiceModule } from './module.js';

type UnaryImplementation = (request: unknown, context: HandlerContext) => unknown;

export interface DirectTransportOptions {
  /**
   * Encode every request and answer to protobuf bytes, decode it and compare it with the original
   * (message-check.ts), handing the decoded copies on as a network hop would: a message that
   * cannot travel fails in-process too. Costs an encoding per message; the test stack turns it on.
   */
  checkMessages?: boolean;
}

/** The signal of a call nobody can cancel: never aborts. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * The embedded default's hop between the gateway and the services (and between services): each
 * call goes straight to the service's implementation with the same handler context a Connect
 * server would build (headers, signal, the caller header), and the messages are handed over as
 * they are. Connect's router transport would encode every request and answer to bytes and back,
 * which for multi-megabyte bodies (a board of thousands of cards) and thousands of small calls a
 * second (claims) was most of the hop's cost. Errors keep their code and details. Services that
 * run in their own process are reached over the network instead (networkTransport). With
 * `checkMessages`, every message makes the round trip through bytes that the network would.
 */
export function directTransport(modules: ServiceModule[], options: DirectTransportOptions = {}): Transport {
  const check = options.checkMessages === true;
  const implementations = new Map<string, UnaryImplementation>();
  const capture = {
    service(service: DescService, implementation: Record<string, UnaryImplementation>) {
      for (const method of service.methods) {
        const unary = implementation[method.localName];
        if (unary) implementations.set(method.parent.typeName + '/' + method.name, unary.bind(implementation));
      }
      return capture;
    },
    rpc() {
      throw new Error('directTransport supports services registered with router.service()');
    },
    handlers: [],
  };
  for (const module of modules) module.routes(capture as unknown as ConnectRouter);

  const call = async <I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    implementation: UnaryImplementation,
    request: unknown,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    header: ConstructorParameters<typeof Headers>[0] | undefined,
    contextValues: ContextValues | undefined,
  ): Promise<UnaryResponse<I, O>> => {
    const context = handlerContext(method as DescMethod, signal, timeoutMs, header, contextValues);
    let output: unknown;
    try {
      const answer = implementation(request, context);
      output = await (timeoutMs === undefined ? answer : withinDeadline(answer, context.signal));
    } catch (error) {
      throw toServiceError(error);
    }
    const answered = isMessage(output, method.output) ? output : create(method.output, output as MessageInitShape<O>);
    const message = check ? roundTripChecked(method.output, answered, `answer of ${method.parent.typeName}.${method.name}`) : answered;
    return { stream: false, service: method.parent, method, header: context.responseHeader, trailer: context.responseTrailer, message };
  };

  return {
    async unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0] | undefined,
      input: MessageInitShape<I>,
      contextValues?: ContextValues,
    ): Promise<UnaryResponse<I, O>> {
      const implementation = implementations.get(method.parent.typeName + '/' + method.name);
      if (!implementation) throw new ConnectError(`${method.parent.typeName}.${method.name} is not implemented`, Code.Unimplemented);
      const given = isMessage(input, method.input) ? input : create(method.input, input);
      const request = check ? roundTripChecked(method.input, given, `request of ${method.parent.typeName}.${method.name}`) : given;
      if (!tracingEnabled()) return call(method, implementation, request, signal, timeoutMs, header, contextValues);
      // Traced as a network call is: the caller's span, its `traceparent` in the request headers,
      // and the service's span as its child, read back from those headers.
      const traced = tracingClientInterceptor(
        tracingServerInterceptor(((req: UnaryRequest<I, O>) => call(method, implementation, req.message, req.signal, timeoutMs, req.header, req.contextValues)) as unknown as Parameters<Interceptor>[0]),
      );
      const unaryRequest: UnaryRequest<I, O> = {
        stream: false,
        service: method.parent,
        method,
        requestMethod: 'POST',
        url: `/${method.parent.typeName}/${method.name}`,
        signal: signal ?? NEVER_ABORTED,
        header: new Headers(header),
        contextValues: contextValues ?? createContextValues(),
        message: request,
      };
      return (await traced(unaryRequest)) as UnaryResponse<I, O>;
    },
    stream() {
      return Promise.reject(new ConnectError('streaming calls are not used between landscreen services', Code.Unimplemented));
    },
  };
}

/**
 * The answer, or DeadlineExceeded once the call's deadline passes, as a network client would see
 * it: an implementation that ignores its signal (a query on a black-holed database) cannot hold
 * the caller past the deadline it asked for (the readiness probe's).
 */
function withinDeadline<T>(answer: T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (!(answer instanceof Promise)) return Promise.resolve(answer);
  let onAbort: () => void = () => {};
  const deadline = new Promise<never>((_, reject) => {
    onAbort = () => reject(ConnectError.from(signal.reason ?? new ConnectError('the deadline was exceeded', Code.DeadlineExceeded)));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  answer.catch(() => {}); // a late failure after the deadline has no one to tell
  return Promise.race([answer, deadline]).finally(() => signal.removeEventListener('abort', onAbort));
}

/**
 * The context a Connect server would hand the implementation. A call with a deadline gets
 * Connect's own (its signal fires at the deadline); one without, the common case in-process, gets
 * the caller's signal as it is, instead of the two AbortControllers and listeners Connect links up
 * for every call (a measurable share of a claim's CPU at a thousand calls a second).
 */
function handlerContext(
  method: DescMethod,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  header: ConstructorParameters<typeof Headers>[0] | undefined,
  contextValues: ContextValues | undefined,
): HandlerContext {
  const init = {
    service: method.parent,
    method,
    protocolName: 'in-process',
    requestMethod: 'POST',
    url: `/${method.parent.typeName}/${method.name}`,
  };
  if (timeoutMs !== undefined) return createHandlerContext({ ...init, timeoutMs, requestSignal: signal, requestHeader: header, contextValues });
  return {
    ...init,
    signal: signal ?? NEVER_ABORTED,
    timeoutMs: () => undefined,
    requestHeader: new Headers(header),
    responseHeader: new Headers(),
    responseTrailer: new Headers(),
    values: contextValues ?? createContextValues(),
  };
}

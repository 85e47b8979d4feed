import os from 'node:os';
import { ApiError } from '../errors/index.js';
import { BODY_CODECS, type BodyCodecName } from '../routes/body-decoders.js';
import type { RouteDef } from '../routes/route.js';
import { WorkerPool, WorkerTaskError } from '../worker-pool/pool.js';
import { compileBody, type BodyContext, type InvalidUtf8Body, type PreparedBody, type RequestSchemas } from './request.js';

/**
 * Bodies of this many bytes or more are decoded, parsed and validated on a worker thread. Below
 * it the work takes about a millisecond, less than the round trip to a worker; a 30 MB run body
 * held the thread answering requests for 2-4 s (four at once: 6.5 s).
 */
export const LARGE_BODY_BYTES = 256 * 1024;

/** A body left as bytes by the content-type parser (json-body.ts), for a body worker. */
export class LargeBody {
  constructor(readonly bytes: Buffer) {}
}

/** One body worker task: the route's body schemas, its decoder and the bytes (transferred). */
export interface BodyTask {
  route: string;
  schemas: Pick<RequestSchemas, 'body' | 'bodyRequired'>;
  decoder?: BodyCodecName;
  bytes: Uint8Array;
  context: BodyContext;
}

interface BodyAnswer {
  prepared: PreparedBody;
  /** A large valid body in its codec's packed form (body-decoders.ts). */
  packed?: unknown;
}

/** Two workers at most: body parsing is bursty, and the rest of the machine serves requests. */
const BODY_WORKERS = Math.max(1, Math.min(2, (os.availableParallelism?.() ?? os.cpus().length) - 1));
/** Large bodies waiting for a worker beyond which one is refused (503 busy). */
const MAX_WAITING = 64;
/** A 32 MiB body parses and validates in seconds; this only catches a worker that hangs. */
const TASK_TIMEOUT_MS = 120_000;

/**
 * Prepares each request's body (compileBody: decode, parse, validate) inline when it is small,
 * and on a pool of worker threads when it is large (D39: the loop answering requests does no
 * large-body parsing). Runs after authentication: Fastify reads a body only once the route's
 * onRequest hook has let the caller through.
 */
export class BodyParser {
  private readonly inline = new WeakMap<RouteDef, ReturnType<typeof compileBody>>();
  private readonly pool: WorkerPool;

  constructor(options: { eager?: boolean } = {}) {
    this.pool = new WorkerPool({
      name: 'body',
      entry: new URL('./body-worker.js', import.meta.url),
      size: BODY_WORKERS,
      taskTimeoutMs: TASK_TIMEOUT_MS,
      maxQueue: MAX_WAITING,
      eager: options.eager,
    });
  }

  /** The route's body as validation takes it. */
  async prepare(route: RouteDef, body: unknown, context: BodyContext): Promise<PreparedBody> {
    if (!(body instanceof LargeBody) || !route.request.body) {
      let prepare = this.inline.get(route);
      if (!prepare) this.inline.set(route, (prepare = compileBody(route.request, route.bodyDecoder && BODY_CODECS[route.bodyDecoder].decode)));
      return prepare(body instanceof LargeBody ? undefined : (body as string | InvalidUtf8Body | undefined), context);
    }
    const bytes = ownedBytes(body.bytes);
    const task: BodyTask = {
      route: `${route.method} ${route.path}`,
      schemas: { body: route.request.body, bodyRequired: route.request.bodyRequired },
      decoder: route.bodyDecoder,
      bytes,
      context,
    };
    let answer: BodyAnswer;
    try {
      answer = await this.pool.run<BodyAnswer>({ ...task }, [bytes.buffer as ArrayBuffer]);
    } catch (error) {
      if (error instanceof WorkerTaskError && (error.reason === 'busy' || error.reason === 'closed')) {
        throw new ApiError(503, 'busy', 'Too many large request bodies are being read; retry in a few seconds.', {}, { 'retry-after': '5' });
      }
      throw error;
    }
    if (answer.packed === undefined) return answer.prepared;
    const unpack = route.bodyDecoder && BODY_CODECS[route.bodyDecoder].unpack;
    return { ...answer.prepared, value: unpack ? unpack(answer.packed) : answer.packed } as PreparedBody;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The bytes in an ArrayBuffer of their own, which can be handed to the worker rather than copied. */
function ownedBytes(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return new Uint8Array(bytes.buffer, 0, bytes.byteLength);
  const owned = new Uint8Array(bytes.byteLength);
  owned.set(bytes);
  return owned;
}

// A body worker (body-parser.ts): decodes, parses and validates one large request body per task,
// off the thread that answers requests. Schemas arrive with each task and are compiled once per
// route.

import { BODY_CODECS, type BodyCodec } from '../routes/body-decoders.js';
import { serveTasks } from '../worker-pool/serve.js';
import type { BodyTask } from './body-parser.js';
import { compileBody, type PreparedBody } from './request.js';
import { decodeBodyBytes } from './utf8.js';

const compiled = new Map<string, ReturnType<typeof compileBody>>();

serveTasks<BodyTask & { id: number }>((task) => {
  const codec: BodyCodec | undefined = task.decoder ? BODY_CODECS[task.decoder] : undefined;
  let prepare = compiled.get(task.route);
  if (!prepare) compiled.set(task.route, (prepare = compileBody(task.schemas, codec?.decode)));
  let prepared: PreparedBody = prepare(decodeBodyBytes(Buffer.from(task.bytes)), task.context);
  // A body with issues is refused whole: its value would only cost the other thread a copy.
  if (prepared.kind === 'value' && prepared.issues.length > 0) prepared = { ...prepared, value: undefined };
  if (prepared.kind === 'value' && prepared.issues.length === 0 && codec?.pack && prepared.value !== undefined) {
    const { packed, transfer } = codec.pack(prepared.value);
    return { result: { prepared: { ...prepared, value: undefined }, packed }, transfer };
  }
  return { result: { prepared } };
});

export type { BroadcastHandler, BusEvent, EventBus, EventHandler, PublishOptions, SubscribeOptions, Subscription } from './bus.js';
export { createMemoryBus, type MemoryBusOptions } from './memory-bus.js';
export { connectNatsBus, type NatsBusOptions } from './nats-bus.js';
export { openEventBus } from './open.js';
export {
  DILIGENCE_EVENT_SUBJECTS,
  DILIGENCE_JOB_EVENTS,
  DILIGENCE_STEP_EVENTS,
  DILIGENCE_STREAM,
  DILIGENCE_SUBJECTS,
  diligenceSubject,
  subjectMatches,
  type DiligenceJobEvent,
  type DiligenceStepEvent,
  type DiligenceSubject,
} from './subjects.js';
export { backoffMs, createRelayLoop, type RelayLogger, type RelayLoop, type RelayLoopOptions } from './relay-loop.js';
export { BUS_SCOPE_PATTERN, busNames, scopeBus, type BusNames } from './scope.js';

export { createOutboxRelay, type OutboxRelay, type OutboxRelayDeps, type OutboxRelayOptions } from './outbox-relay.js';
export { RELAY_FAULT_AFTER_PUBLISH } from './relay-batch.js';
export { pruneOutbox } from './prune.js';
export { DILIGENCE_OUTBOX, type OutboxTable } from './outbox-table.js';

import { createHash } from 'node:crypto';

export interface WeightedReplica {
  id: string;
  /** Its share of markets relative to the others' (its memory budget). */
  weight: number;
}

/**
 * The replica a market belongs on: weighted rendezvous hashing (highest random weight) over the
 * live replicas. Every replica computes it alike from the same rows, without talking to the
 * others; a replica joining takes only the markets it now wins (about its weight's share, from
 * every other replica) and a replica leaving gives up only its own, so neither moves anything
 * else. Ties (practically impossible) go to the smaller id.
 */
export function desiredReplica(marketId: string, replicas: readonly WeightedReplica[]): string | undefined {
  let best: string | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const replica of replicas) {
    const score = rendezvousScore(marketId, replica);
    if (score > bestScore || (score === bestScore && best !== undefined && replica.id < best)) {
      best = replica.id;
      bestScore = score;
    }
  }
  return best;
}

/**
 * −weight / ln(u) for u uniform in (0, 1) from the pair's hash: the weighted form of rendezvous
 * hashing, under which a replica wins each market with probability weight / Σweights.
 */
function rendezvousScore(marketId: string, replica: WeightedReplica): number {
  const digest = createHash('sha256').update(marketId).update('\0').update(replica.id).digest();
  // 53 bits of the digest as a fraction in (0, 1): never 0, so the logarithm stays finite.
  const unit = (digest.readUIntBE(0, 6) * 32 + (digest[6]! >>> 3) + 0.5) / 2 ** 53;
  return -replica.weight / Math.log(unit);
}

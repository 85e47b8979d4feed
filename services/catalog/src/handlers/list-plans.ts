import type { catalogv1 } from '@landscreen/proto';
import { PRICE_LIST_MESSAGE } from '../messages/price-list.js';

/** D33: the price list exactly as the catalog spec gives it (immutable, built once). */
export async function listPlans(): Promise<catalogv1.ListPlansResponse> {
  return PRICE_LIST_MESSAGE;
}

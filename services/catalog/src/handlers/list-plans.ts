import { PRICE_LIST } from '@landscreen/field-catalog';
import { jsonBytes } from '@landscreen/rpc';

const priceListJson = jsonBytes(PRICE_LIST);

/** D33: the price list exactly as the catalog spec gives it (immutable, encoded once). */
export async function listPlans() {
  return { priceListJson };
}

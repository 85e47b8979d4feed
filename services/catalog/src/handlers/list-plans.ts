import type { JsonObject } from '@bufbuild/protobuf';
import { PRICE_LIST } from '@landscreen/field-catalog';

/** D33: the price list exactly as the catalog spec gives it. */
export async function listPlans() {
  return { priceList: PRICE_LIST as unknown as JsonObject };
}

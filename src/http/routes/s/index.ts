import type { RouteDef } from '../../route.js';
import { listingsInstantBook, listingsLuxury, listingsSuperhost, searchWithDetails } from './search.js';
import { stayBatch, stayByAddress, stayByUrl, stayGet, stayPartRoutes } from './stays.js';
import { webhookCreate, webhookDelete, webhookDeliveries, webhookGet, webhookList, webhookResend, webhookTrigger } from './webhooks.js';

/**
 * Family S routes (snake_case, `{ data, meta?, request_id }`), in the order the OpenAPI document
 * lists them. by-url and by-address come before {id}, which would otherwise match them.
 */
export const FAMILY_S_ROUTES: RouteDef[] = [
  stayByUrl,
  stayByAddress,
  stayBatch,
  stayGet,
  ...stayPartRoutes,
  searchWithDetails,
  listingsSuperhost,
  listingsLuxury,
  listingsInstantBook,
  webhookCreate,
  webhookTrigger,
  webhookList,
  webhookGet,
  webhookDelete,
  webhookDeliveries,
  webhookResend,
];

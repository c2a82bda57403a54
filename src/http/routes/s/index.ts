import type { RouteDef } from '../../route.js';
import { webhookCreate, webhookDelete, webhookDeliveries, webhookGet, webhookList } from './webhooks.js';

/** Family S routes (snake_case, `{ data, meta?, request_id }`), in the order the OpenAPI document lists them. */
export const FAMILY_S_ROUTES: RouteDef[] = [webhookCreate, webhookList, webhookGet, webhookDelete, webhookDeliveries];

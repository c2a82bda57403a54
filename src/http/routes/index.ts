// Every route of the API, in the order the OpenAPI document lists them: Family U, then Family S.
import type { RouteDef } from '../route.js';
import { FAMILY_S_ROUTES } from './s/index.js';
import { FAMILY_U_ROUTES } from './u/index.js';

export const API_ROUTES: RouteDef[] = [...FAMILY_U_ROUTES, ...FAMILY_S_ROUTES];

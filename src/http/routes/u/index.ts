import type { RouteDef } from '../../route.js';
import { accountGet, topupPost } from './account.js';
import { availabilityGet } from './availability.js';
import { jobCancel, jobGet } from './jobs.js';
import { historyAvailabilityGet, historyBookingsGet, historyListingsGet, historyObservationsGet, historyPriceGet } from './history.js';
import { jobsList } from './jobs-list.js';
import { listingGet } from './listing.js';
import { matchDecisionDelete, matchDecisionPost, matchesGet } from './matches.js';
import { priceCompareGet } from './price-compare.js';
import { priceGet } from './price.js';
import { reviewsGet } from './reviews.js';
import { searchGet, searchPost } from './search.js';
import { collectionCreate, collectionDelete, collectionGet, collectionList, collectionRun, collectionUpdate } from './collections.js';
import { compSetCreate, compSetDelete, compSetGet, compSetList, marketGet } from './market.js';
import { watchCreate, watchDelete, watchEventsGet, watchGet, watchList, watchRunPost } from './watches.js';

/** Family U routes, in the order the OpenAPI document lists them. */
export const FAMILY_U_ROUTES: RouteDef[] = [
  searchGet,
  searchPost,
  reviewsGet,
  priceGet,
  priceCompareGet,
  availabilityGet,
  listingGet,
  accountGet,
  jobsList,
  jobGet,
  jobCancel,
  topupPost,
  historyPriceGet,
  historyAvailabilityGet,
  historyListingsGet,
  historyObservationsGet,
  historyBookingsGet,
  watchCreate,
  watchList,
  watchGet,
  watchDelete,
  watchEventsGet,
  watchRunPost,
  marketGet,
  compSetCreate,
  compSetList,
  compSetGet,
  compSetDelete,
  collectionCreate,
  collectionList,
  collectionGet,
  collectionUpdate,
  collectionRun,
  collectionDelete,
  matchesGet,
  matchDecisionPost,
  matchDecisionDelete,
];

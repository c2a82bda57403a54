// The most results a platform answers one search with (issue 38, item 2): past it, a search is
// cut short, and says so (meta.truncated, a results_truncated warning). Sources: airbnb about 280
// (pyairbnb #12, #31, #41); booking 1,000 (../shared/research/upstream-actors.md 2.4 #8); vrbo 500
// (the vrbo actor's author, 2.6 #3); google 200 is our choice (ten pages of twenty hotels), see
// docs/decisions.md "Issue 38: discovery past the caps".
import type { EnabledPlatform } from './platforms.js';

export const SEARCH_CAPS: Readonly<Record<EnabledPlatform, number>> = Object.freeze({ airbnb: 280, booking: 1000, vrbo: 500, google: 200 });

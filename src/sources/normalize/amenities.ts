// Free-text amenity labels, as each platform words them ("Free WiFi", "Outdoor swimming pool",
// "Free parking on premises", "Hot tub/Jacuzzi"…), to the canonical taxonomy (AMENITIES).
// Labels we cannot map with confidence are dropped rather than guessed: a wrong token would
// make an amenity filter return a property that lacks it.
import { AMENITIES, type Amenity } from '../../core/schemas/enums.js';

/** Lower case, no diacritics or apostrophes, punctuation as single spaces: "Hot tub/Jacuzzi" → "hot tub jacuzzi". */
function plain(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2018\u2019`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

// Statements that an amenity is absent ("No pets", "Pets not allowed", "Breakfast unavailable").
// Checked after NON_SMOKING, whose labels are themselves negations.
const NEGATED = /\b(?:no|not|without|unavailable)\b/;
const NON_SMOKING = /\bnon ?smoking\b|\bno smoking\b|\bsmoke free\b|\bsmoking (?:is )?not allowed\b/;

// First match wins, so the more specific rule comes first: hot tub before pool ("whirlpool"),
// dishwasher before washer, paid parking before free parking, pool before heating ("heated pool").
const RULES: readonly (readonly [Amenity, RegExp])[] = [
  ['hot_tub', /\bhot ?tubs?\b|\bjacuzzi\b|\bwhirlpool\b|\bspa bath\b/],
  ['pool', /\bpools?\b(?! table| view)|\bswimming\b/],
  ['dishwasher', /\bdish ?washer\b/],
  ['washer', /\bwasher\b|\bwashing machine\b/],
  ['dryer', /(?<!hair )\b(?:tumble |clothes )?dryer\b/],
  ['kitchen', /\bkitchen(?:ette)?\b/],
  ['wifi', /\bwi ?fi\b|\bwireless\b/],
  ['air_conditioning', /\bair condition(?:ing|ed|er)?\b|\ba c\b/],
  ['parking_paid', /\bparking\b.*\b(?:paid|charge|fee)\b|\b(?:paid|charge|fee)\b.*\bparking\b/],
  ['parking_free', /\bfree\b.*\bparking\b|\bparking\b.*\bfree\b/],
  ['pet_friendly', /\bpets? (?:allowed|friendly|welcome|considered)\b|\bpets are allowed\b/],
  ['ev_charger', /\bev charg|\belectric vehicle\b/],
  ['gym', /\bgym\b|\bfitness\b|\bexercise equipment\b/],
  ['sea_view', /\b(?:sea|ocean|beach) views?\b/],
  ['beachfront', /\bbeach ?front\b|\bon the beach\b/],
  ['balcony', /\bbalcon(?:y|ies)\b|\bterrace\b|\bpatio\b/],
  ['bbq', /\bbbq\b|\bbarbe(?:c|qu)ue\b|\bgrill\b/],
  ['workspace', /\bwork ?space\b|\bdesk\b/],
  ['crib', /\bcribs?\b|\bcots?\b/],
  ['elevator', /\belevators?\b|\blift\b/],
  ['wheelchair_accessible', /\bwheelchair\b|\bdisabled guests\b|\bstep free\b/],
  ['smoke_alarm', /\bsmoke (?:alarms?|detectors?)\b/],
  ['breakfast', /\bbreakfast\b/],
  ['spa', /\bspa\b|\bsauna\b|\bwellness\b/],
  ['garden', /\bgarden\b|\bbackyard\b/],
  ['fireplace', /\bfire ?place\b/],
  ['self_check_in', /\bself check ?in\b|\bkeyless\b|\bkeypad\b|\bsmart ?lock\b|\blockbox\b/],
  ['family_friendly', /\bfamil(?:y|ies)\b|\bkids?\b|\bchild(?:ren)?s?\b/],
  ['heating', /\bheat(?:ing|er)\b/],
];

/** The token of one label, or null when the label is unknown or says the amenity is absent. */
export function amenityOf(label: string): Amenity | null {
  const s = plain(label);
  if (s === '') return null;
  if (NON_SMOKING.test(s)) return 'non_smoking';
  if (NEGATED.test(s)) return null;
  for (const [token, re] of RULES) if (re.test(s)) return token;
  return null;
}

/** Tokens of the labels in first-seen order, unknown labels dropped, duplicates removed. */
export function canonicalAmenities(labels: Iterable<unknown>): Amenity[] {
  const out: Amenity[] = [];
  for (const label of labels) {
    const token = typeof label === 'string' ? amenityOf(label) : null;
    if (token !== null && !out.includes(token)) out.push(token);
  }
  return out;
}

const RANK = new Map<Amenity, number>(AMENITIES.map((a, i) => [a, i]));

/**
 * Tokens in taxonomy order: what a Property carries, so one listing's amenities compare equal
 * whatever order or grouping its platform lists them in.
 */
export function propertyAmenities(labels: Iterable<unknown>): Amenity[] {
  return canonicalAmenities(labels).sort((a, b) => RANK.get(a)! - RANK.get(b)!);
}

// The closed vocabularies of the wire types (property types, amenities, plans) and the request id
// format: plain values, for the code that needs them without the schemas (resources.ts).

export const PROPERTY_TYPES = ['hotel', 'apartment', 'house', 'villa', 'cottage', 'other'] as const;

/** The canonical amenity taxonomy (lower snake case tokens). */
export const AMENITIES = [
  'pool',
  'hot_tub',
  'kitchen',
  'wifi',
  'air_conditioning',
  'heating',
  'parking_free',
  'parking_paid',
  'pet_friendly',
  'washer',
  'dryer',
  'ev_charger',
  'gym',
  'sea_view',
  'beachfront',
  'balcony',
  'bbq',
  'workspace',
  'crib',
  'elevator',
  'wheelchair_accessible',
  'smoke_alarm',
  'breakfast',
  'spa',
  'garden',
  'fireplace',
  'dishwasher',
  'self_check_in',
  'non_smoking',
  'family_friendly',
] as const;

export const REQUEST_ID_PATTERN = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

export const PLAN_CODES = ['free', 'starter', 'pro', 'scale', 'enterprise'] as const;
export const PLAN_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid'] as const;

export type PlanCode = (typeof PLAN_CODES)[number];
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type Amenity = (typeof AMENITIES)[number];

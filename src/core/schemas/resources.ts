// Resource schemas (Family U): the single source of the wire types, the OpenAPI document and the
// typed client. Field sets follow the spec, extended to the public peer's superset
// (peer/stayingapi-openapi.json) so its official client reads our answers unchanged.
// The definitions are in resource-schemas.ts, built when this module loads (code that answers
// requests imports them from there, so a CLI start builds none).
import type { z } from 'zod';
import { resourceSchemas } from './resource-schemas.js';

export { AMENITIES, PLAN_CODES, PLAN_STATUSES, PROPERTY_TYPES, REQUEST_ID_PATTERN } from './enums.js';
export type { Amenity, PlanCode, PlanStatus, PropertyType } from './enums.js';

const built = resourceSchemas();
export const PlatformSchema = built.PlatformSchema;
export const PropertyTypeSchema = built.PropertyTypeSchema;
export const AmenitySchema = built.AmenitySchema;
export const RequestIdSchema = built.RequestIdSchema;
export const FeesSchema = built.FeesSchema;
export const OccupancySchema = built.OccupancySchema;
export const PriceSchema = built.PriceSchema;
export const PropertySchema = built.PropertySchema;
export const AvailabilityDaySchema = built.AvailabilityDaySchema;
export const AvailabilitySchema = built.AvailabilitySchema;
export const OfferSchema = built.OfferSchema;
export const PriceCompareSchema = built.PriceCompareSchema;
export const ReviewSchema = built.ReviewSchema;
export const CreditsSchema = built.CreditsSchema;
export const AccountSchema = built.AccountSchema;
export const ErrorSchema = built.ErrorSchema;
export const ErrorEnvelopeSchema = built.ErrorEnvelopeSchema;
export const PlatformFailureErrorSchema = built.PlatformFailureErrorSchema;
export const PaginationSchema = built.PaginationSchema;
export const PlatformResultSchema = built.PlatformResultSchema;
export const WarningSchema = built.WarningSchema;
export const MetaSchema = built.MetaSchema;

export type Property = z.infer<typeof PropertySchema>;
export type Price = z.infer<typeof PriceSchema>;
export type Availability = z.infer<typeof AvailabilitySchema>;
export type AvailabilityDay = z.infer<typeof AvailabilityDaySchema>;
export type PriceCompare = z.infer<typeof PriceCompareSchema>;
export type Offer = z.infer<typeof OfferSchema>;
export type Review = z.infer<typeof ReviewSchema>;
export type Account = z.infer<typeof AccountSchema>;
export type Meta = z.infer<typeof MetaSchema>;
export type Pagination = z.infer<typeof PaginationSchema>;
export type PlatformResult = z.infer<typeof PlatformResultSchema>;
export type Warning = z.infer<typeof WarningSchema>;

// Raw rows: dataset items as the upstream actors emit them (shared/research/upstream-actors.md,
// sections 2.1–2.7), per platform and kind, with the actors' own field names. Everything is
// optional because actors drop keys across builds and leave unknown values null, "" or absent;
// normalizers must read all of it defensively. Fields marked [U] are not confirmed for the real
// actor: the simulated upstream emits them so the round trip is lossless, and a real row without
// them normalizes to null for the unified field they carry.

// Kept as the one import point; the shapes live per platform in ./types/.
export type * from './types/airbnb.js';
export type * from './types/booking.js';
export type * from './types/vrbo.js';
export type * from './types/google.js';

// The sandbox world's truth about the same place across platforms (twins.ts), for the sandbox's
// /v1/matches, the precision test and the bench: which listings are one property, which are
// neighbours that are not, and the perceptual hashes of the listings' photos.
import { baseRow } from './rows.js';
import { twinTruth } from './twins.js';

export const sandboxTruth = twinTruth(baseRow);

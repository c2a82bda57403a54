// One entry of POST /v1/stays/batch, checked as the service checks it. Its own module, with light
// imports, because the CLI checks a batch file's lines with it before sending (and the remote
// bundle must not pull in the operations).
import { ServiceError } from '../errors.js';
import { parseListingId, parseListingUrl } from '../listing-ref.js';
import { preview } from '../validate.js';

/** The airbnb listing id an entry names ({ id } or { url }); invalid_parameter naming entries[i] otherwise. */
export function batchEntryId(e: unknown, i: number): string {
  const param = `entries[${i}]`;
  if (e === null || typeof e !== 'object' || Array.isArray(e)) {
    throw new ServiceError('invalid_parameter', `${param} must be an object { id } or { url } (got ${preview(e)}).`, { param });
  }
  const o = e as Record<string, unknown>;
  const keys = Object.keys(o);
  const forms = keys.filter((k) => k === 'id' || k === 'url');
  const other = keys.find((k) => k !== 'id' && k !== 'url');
  if (other !== undefined) {
    const why = other === 'address' ? 'address lookups are not supported' : `unknown key ${preview(other)}`;
    throw new ServiceError('invalid_parameter', `${param}: ${why}; give exactly one of id or url.`, { param });
  }
  if (forms.length !== 1) throw new ServiceError('invalid_parameter', `${param} must have exactly one of id or url (it has ${forms.length === 0 ? 'neither' : 'both'}).`, { param });
  const v = o[forms[0]!];
  if (typeof v !== 'string' || v.trim() === '') throw new ServiceError('invalid_parameter', `${param}.${forms[0]} must be a non-empty string (got ${preview(v)}).`, { param });
  return forms[0] === 'url' ? parseListingUrl('airbnb', v, { param }) : parseListingId('airbnb', v, { param });
}

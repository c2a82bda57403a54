/** A value made on its first use and kept: schemas that only some calls need (building zod schemas is a share of a CLI start). */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

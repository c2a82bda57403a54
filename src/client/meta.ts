// Reading a page's meta whichever family wrote it: Family U (camelCase, meta.pagination) or
// Family S (snake_case, meta.next_page_token). A Family S page that ran as a job comes back with
// Family U meta (the job's), so one walk can see both.

interface AnyMeta {
  creditsCharged?: number;
  credits_charged?: number;
  pagination?: { hasMore?: boolean; nextCursor?: string | null } | null;
  has_more?: boolean;
  next_page_token?: string | null;
}

const of = (meta: unknown) => (meta ?? {}) as AnyMeta;

/** Credits the page charged (0 when it does not say). */
export function creditsOf(meta: unknown): number {
  const m = of(meta);
  return m.creditsCharged ?? m.credits_charged ?? 0;
}

/**
 * Where the walk goes next: `next` is the next cursor or page token (null on the last page);
 * null when the page carries no pagination at all (it is unknown whether more pages follow).
 */
export function nextPageOf(meta: unknown): { hasMore: boolean; next: string | null } | null {
  const m = of(meta);
  if ('next_page_token' in m) {
    const next = m.next_page_token ?? null;
    return { hasMore: next !== null, next };
  }
  if (m.pagination) return { hasMore: m.pagination.hasMore === true, next: m.pagination.nextCursor ?? null };
  return null;
}

/** meta with its credits set to `credits`, in the family's own key. */
export function withCredits<M>(meta: M, credits: number): M {
  return 'credits_charged' in of(meta) ? { ...meta, credits_charged: credits } : { ...meta, creditsCharged: credits };
}

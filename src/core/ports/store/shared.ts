// What several instances on one database share beyond the tables every store has. Part of the store
// port (../store.ts).

/** A token-bucket decision (src/core/ratelimit.ts has the in-process one). */
interface TokenTake {
  allowed: boolean;
  /** Tokens left after this request (fractional). */
  tokens: number;
}

/** One upstream question in flight across instances (D19 coalescing on a shared store). */
type FlightClaim = { leader: true } | { leader: false; id: string };

type FlightState = { state: 'running' } | { state: 'done'; value: unknown } | { state: 'failed'; error: unknown } | { state: 'gone' };

/**
 * What several instances on one database share beyond the tables every store has: the rate
 * buckets and the upstream calls in flight. Only a store that several servers can share (PostgreSQL)
 * has it; the embedded store keeps both in the process.
 */
export interface SharedState {
  /** Takes a token from bucket `id` (capacity `perMinute`, refilled over a minute), in one statement. */
  takeToken(id: string, perMinute: number, now: number): Promise<TokenTake>;
  /**
   * Claims the upstream call `key` for flight `id` of `owner` (lease until `leaseUntil`), unless
   * another flight of it is running under a current lease: then that flight's id.
   */
  claimFlight(key: string, id: string, owner: string, leaseUntil: number, now: number): Promise<FlightClaim>;
  /** Records how flight `id` ended, for the instances that wait on it. */
  endFlight(key: string, id: string, outcome: { value: unknown } | { error: unknown }, now: number): Promise<void>;
  /** Flight `id` of `key`: running, ended (with its outcome), or gone (replaced, or its owner died). */
  readFlight(key: string, id: string, now: number): Promise<FlightState>;
}

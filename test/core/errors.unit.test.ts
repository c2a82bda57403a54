import { describe, expect, it } from 'vitest';
import { ALL_ERROR_CODES, ServiceError, errorInfo } from '../../src/core/errors.js';

describe('the error catalogue', () => {
  it('every 503 the service raises about itself says when to come back, whoever throws it', () => {
    // A flight follower re-raises its leader's recorded code with no options: the header must survive that.
    expect(new ServiceError('database_unavailable').retryAfter).toBe(2);
    expect(new ServiceError('service_overloaded', 'busy').retryAfter).toBe(1);
    // A thrower's own figure wins.
    expect(new ServiceError('database_unavailable', undefined, { retryAfter: 7 }).retryAfter).toBe(7);
  });

  it('codes without a default carry no Retry-After unless the thrower gives one', () => {
    const withDefault = new Set(['database_unavailable', 'service_overloaded']);
    for (const code of ALL_ERROR_CODES) {
      if (withDefault.has(code)) continue;
      expect(new ServiceError(code).retryAfter, code).toBeUndefined();
      expect(errorInfo(code).status, code).toBeGreaterThanOrEqual(400);
    }
  });
});

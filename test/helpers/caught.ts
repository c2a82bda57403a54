// The ServiceError a call throws; fails the test when it throws anything else or nothing.
import { expect } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';

export function caught(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    return e as ServiceError;
  }
  throw new Error('expected a ServiceError, nothing was thrown');
}

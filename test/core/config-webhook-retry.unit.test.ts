// STAYS_TEST_WEBHOOK_RETRY_MS, the test suite's setting for the webhook retry waits (the runtime
// passes it to the dispatcher; test/http/webhook-delivery.inprocess.test.ts shows it used): two
// waits in ms, or unset for the spec's 1 s and 6 s; anything else is a ConfigError naming it.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const env = (vars: Record<string, string>) => ({ STAYS_DATA_DIR: '/tmp/stays-config-test', ...vars });

describe('STAYS_TEST_WEBHOOK_RETRY_MS', () => {
  it('is unset by default (the dispatcher keeps the spec’s waits), or two waits in ms', () => {
    expect(loadConfig({}, env({})).webhookRetryDelaysMs).toBeUndefined();
    expect(loadConfig({}, env({ STAYS_TEST_WEBHOOK_RETRY_MS: '' })).webhookRetryDelaysMs).toBeUndefined();
    expect(loadConfig({}, env({ STAYS_TEST_WEBHOOK_RETRY_MS: '50,300' })).webhookRetryDelaysMs).toEqual([50, 300]);
    expect(loadConfig({ webhookRetryDelaysMs: [0, 10] }, env({ STAYS_TEST_WEBHOOK_RETRY_MS: '50,300' })).webhookRetryDelaysMs).toEqual([0, 10]);
  });

  it.each(['50', '50,300,900', '-1,5', '1s,6s', 'fast'])('refuses %j, naming the variable', (v) => {
    expect(() => loadConfig({}, env({ STAYS_TEST_WEBHOOK_RETRY_MS: v }))).toThrow(ConfigError);
    expect(() => loadConfig({}, env({ STAYS_TEST_WEBHOOK_RETRY_MS: v }))).toThrow(/STAYS_TEST_WEBHOOK_RETRY_MS: must be two waits in ms/);
  });
});

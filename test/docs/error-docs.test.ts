// The error and warning texts: every code of the catalogue is documented, and the reference the
// package ships (docs/errors.md, docs/warnings.md) is what the module generates.
// After changing src/core/error-docs.ts or the catalogue: npx vitest run test/docs/error-docs.test.ts -u
import { describe, expect, it } from 'vitest';
import { ALL_WARNING_CODES, ERROR_DOCS, WARNING_DOCS, errorText, errorsListText, errorsMarkdown, suggestCodes, warningDoc, warningsMarkdown } from '../../src/core/error-docs.js';
import { ALL_ERROR_CODES, docPageUrl } from '../../src/core/errors.js';

describe('error docs', () => {
  it('documents every code of the catalogue, and nothing else', () => {
    expect(Object.keys(ERROR_DOCS).sort()).toEqual([...ALL_ERROR_CODES].sort());
    for (const code of ALL_ERROR_CODES) {
      const d = ERROR_DOCS[code];
      expect(d.cause.length, code).toBeGreaterThan(20);
      expect(d.fix.length, code).toBeGreaterThan(10);
    }
  });

  it('documents every warning code the service emits', () => {
    for (const code of [
      'platform_not_enabled',
      'price_filter_needs_dates',
      'rating_out_of_scale',
      'price_unavailable',
      'max_items_clamped',
      'filter_ignored',
      'simulated_upstream',
      'availability_unavailable',
      'reviews_unavailable',
    ]) {
      expect(ALL_WARNING_CODES, code).toContain(code);
    }
    for (const code of ALL_WARNING_CODES) expect(WARNING_DOCS[code].cause.length).toBeGreaterThan(20);
    // A failed leg's warning carries an error code: documented too.
    expect(warningDoc('listing_not_found')).not.toBeNull();
    expect(warningDoc('nope')).toBeNull();
  });

  it('the shipped docs/errors.md and docs/warnings.md are generated from the module', async () => {
    await expect(errorsMarkdown()).toMatchFileSnapshot('../../docs/errors.md');
    await expect(warningsMarkdown()).toMatchFileSnapshot('../../docs/warnings.md');
    for (const code of ALL_ERROR_CODES) expect(errorsMarkdown()).toContain(`\n## ${code}\n`);
  });

  it('terminal text: the list has every code, one entry has type, status, cause and fix', () => {
    const list = errorsListText();
    for (const code of ALL_ERROR_CODES) expect(list).toMatch(new RegExp(`^  ${code} +\\S+ +\\d{3}  `, 'm'));
    const one = errorText('listing_not_found');
    expect(one).toMatch(/type +not_found/);
    expect(one).toMatch(/HTTP +404/);
    expect(one).toContain(ERROR_DOCS.listing_not_found.cause);
    expect(one).toContain(ERROR_DOCS.listing_not_found.fix);
  });

  it('suggests close codes for a typo', () => {
    expect(suggestCodes('listing_not_fund', ALL_ERROR_CODES)).toContain('listing_not_found');
    expect(suggestCodes('zzzzzzzzzzzzzzzzzzzzzzzz', ALL_ERROR_CODES)).toEqual([]);
  });

  it('docUrls: a docs site gets /errors/<code>, the shipped docs a Markdown anchor', () => {
    expect(docPageUrl('https://x.test/docs/', 'errors', 'invalid_sort')).toBe('https://x.test/docs/errors/invalid_sort');
    expect(docPageUrl('file:///opt/stays/dist/docs', 'warnings', 'filter_ignored')).toBe('file:///opt/stays/dist/docs/warnings.md#filter_ignored');
  });
});

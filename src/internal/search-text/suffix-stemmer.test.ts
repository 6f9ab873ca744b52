import { describe, expect, it } from 'vitest';
import { stemTerm } from './suffix-stemmer.js';

describe('stemTerm', () => {
  it('maps inflected forms onto one stem', () => {
    const same = (forms: string[]) => new Set(forms.map(stemTerm)).size;
    expect(same(['invoice', 'invoices'])).toBe(1);
    expect(same(['search', 'searches', 'searching', 'searched'])).toBe(1);
    expect(same(['create', 'created', 'creating', 'creation'])).toBe(1);
    expect(same(['query', 'queries'])).toBe(1);
    expect(same(['run', 'running'])).toBe(1);
    expect(same(['translate', 'translation', 'translations'])).toBe(1);
  });

  it('leaves short words, -ss/-us/-is endings and non-ASCII words alone', () => {
    expect(stemTerm('ups')).toBe('ups');
    expect(stemTerm('address')).toBe('address');
    expect(stemTerm('status')).toBe('status');
    expect(stemTerm('analysis')).toBe('analysis');
    expect(stemTerm('müller')).toBe('müller');
  });

  it('does not strip -ing from words with no vowel before it', () => {
    expect(stemTerm('string')).toBe('string');
  });
});

import { describe, expect, it } from 'vitest';
import { displayName, entityIdFromKey, entityKey, parseEntityName, relationIdFromKey, singularize } from './entity-key.js';

describe('singularize', () => {
  it('handles regular, -ies, -es and irregular plurals and leaves singulars alone', () => {
    expect(singularize('cancers')).toBe('cancer');
    expect(singularize('therapies')).toBe('therapy');
    expect(singularize('glasses')).toBe('glass');
    expect(singularize('churches')).toBe('church');
    expect(singularize('headaches')).toBe('headache');
    expect(singularize('children')).toBe('child');
    expect(singularize('metastases')).toBe('metastasis');
    expect(singularize('viruses')).toBe('virus');
    expect(singularize('virus')).toBe('virus');
    expect(singularize('diabetes')).toBe('diabetes');
    expect(singularize('analysis')).toBe('analysis');
    expect(singularize('species')).toBe('species');
    expect(singularize('cell')).toBe('cell');
  });
});

describe('entityKey', () => {
  it('ignores case, plural, punctuation, whitespace and leading determiners', () => {
    const key = entityKey('basal cell carcinoma');
    expect(entityKey('The  Basal-Cell Carcinomas')).toBe(key);
    expect(entityKey('a basal cell carcinoma.')).toBe(key);
    expect(entityKey('“Basal cell   carcinoma”')).toBe(key);
    expect(entityKey("Parkinson's disease")).toBe(entityKey('Parkinsons disease'));
    expect(entityKey('skin')).not.toBe(entityKey('skin cancer'));
  });

  it('keeps a name that is only a determiner-like word out', () => {
    expect(entityKey('the')).toBe('');
    expect(entityKey('?!')).toBe('');
  });
});

describe('parseEntityName', () => {
  it('splits an abbreviation in parentheses', () => {
    expect(parseEntityName('basal cell carcinoma (BCC)')).toEqual({ name: 'basal cell carcinoma', abbreviation: 'BCC' });
    expect(parseEntityName('the ultraviolet  (UV)')).toEqual({ name: 'the ultraviolet', abbreviation: 'UV' });
  });

  it('does not treat lower-case glosses or mismatched initials as abbreviations', () => {
    expect(parseEntityName('skin (epidermis)')).toEqual({ name: 'skin (epidermis)' });
    expect(parseEntityName('radiation therapy (BCC)').abbreviation).toBeUndefined();
  });
});

describe('ids', () => {
  it('are stable, readable and distinct', () => {
    const id = entityIdFromKey('basal cell carcinoma');
    expect(id).toBe(entityIdFromKey('basal cell carcinoma'));
    expect(id).toMatch(/^e-basal-cell-carcinoma-[0-9a-f]{8}$/);
    expect(entityIdFromKey('skin')).not.toBe(id);
    expect(relationIdFromKey('a', 'treat', 'b')).not.toBe(relationIdFromKey('b', 'treat', 'a'));
  });

  it('displayName trims determiners and outer punctuation', () => {
    expect(displayName('  the “skin cancer”, ')).toBe('skin cancer');
  });
});

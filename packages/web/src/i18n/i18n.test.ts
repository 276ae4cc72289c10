import { describe, expect, it } from 'vitest';
import { localizePath, splitLanguage } from './languages';
import { en } from './locales/en';
import { es } from './locales/es';
import { ru } from './locales/ru';
import { messageKeyOf } from './messageKeys';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [inner, text] of leaves(value, path)) found.set(inner, text);
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe.each([
  ['ru', ru],
  ['es', es],
])('the %s texts', (_language, texts) => {
  const english = leaves(en as Tree);
  const translated = leaves(texts as Tree);

  it('have every English key and no other', () => {
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('fill the same placeholders and leave none empty', () => {
    for (const [key, text] of english) {
      const other = translated.get(key) ?? '';
      expect(other.trim(), key).not.toBe('');
      expect(placeholders(other), key).toEqual(placeholders(text));
    }
  });
});

describe('language paths', () => {
  it.each([
    ['/login', 'ru', '/ru/login'],
    ['/', 'es', '/es'],
    ['/?ref=1', 'ru', '/ru?ref=1'],
    ['/faq', 'en', '/faq'],
  ] as const)('localizePath(%s, %s) = %s', (path, language, expected) => {
    expect(localizePath(path, language)).toBe(expected);
  });

  it.each([
    ['/ru/user/api', 'ru', '/user/api'],
    ['/es', 'es', '/'],
    ['/en/faq', 'en', '/en/faq'],
    ['/rules', 'en', '/rules'],
  ])('splitLanguage(%s) = %s + %s', (pathname, language, path) => {
    expect(splitLanguage(pathname)).toEqual({ language, path });
  });
});

describe('server messages', () => {
  it('map to translation keys, numbers kept', () => {
    expect(messageKeyOf('Field is required')).toEqual({ key: 'validation.required' });
    expect(messageKeyOf('Min length 8')).toEqual({
      key: 'validation.minLength',
      values: { length: '8' },
    });
    expect(messageKeyOf('Something no one wrote down')).toBeNull();
  });

  it('cover every validation message of the English texts', () => {
    const known = [...leaves(en.validation as Tree).values()].filter(
      (text) => !text.includes('{{'),
    );
    for (const text of known) expect(messageKeyOf(text), text).not.toBeNull();
  });
});

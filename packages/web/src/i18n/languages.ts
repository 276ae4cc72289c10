/** Interface languages. English has no URL prefix; every other language is `/{lang}/...`. */
export const languages = ['en', 'ru', 'es'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';

/** Each language's name in itself, as a language list shows it. */
export const languageNames: Record<Language, string> = {
  en: 'English',
  ru: 'Русский',
  es: 'Español',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** A first path segment that reads as a language code (`de`, `pt-br`), known or not. */
export function looksLikeLanguageCode(segment: string): boolean {
  return /^[a-z]{2}(-[a-z]{2,4})?$/i.test(segment);
}

/**
 * `path` (which may carry a query and a hash) in `language`: `/login` → `/ru/login`,
 * `/` → `/ru`; English paths are left without a prefix.
 */
export function localizePath(path: string, language: Language): string {
  const absolute = path.startsWith('/') ? path : `/${path}`;
  if (language === defaultLanguage) return absolute;
  if (absolute === '/') return `/${language}`;
  if (absolute.startsWith('/?') || absolute.startsWith('/#'))
    return `/${language}${absolute.slice(1)}`;
  return `/${language}${absolute}`;
}

/** The language a pathname is in and the path without its prefix: `/ru/login` → ru, `/login`. */
export function splitLanguage(pathname: string): { language: Language; path: string } {
  const segment = pathname.split('/')[1] ?? '';
  if (segment !== defaultLanguage && isLanguage(segment)) {
    const rest = pathname.slice(segment.length + 1);
    return { language: segment, path: rest === '' ? '/' : rest };
  }
  return { language: defaultLanguage, path: pathname };
}

import { useCallback } from 'react';
import { useParams } from 'react-router';
import { defaultLanguage, isLanguage, type Language, localizePath } from './languages';

/** The language of the current URL (its `/{lang}` prefix, or English). */
export function useLanguage(): Language {
  const { lang } = useParams();
  return isLanguage(lang) ? lang : defaultLanguage;
}

/** Turns an English path into the current language's: `to('/login')` → `/ru/login`. */
export function useLocalePath(): (path: string) => string {
  const language = useLanguage();
  return useCallback((path: string) => localizePath(path, language), [language]);
}

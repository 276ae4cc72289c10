import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, isLanguage, type Language } from './languages';
import { en } from './locales/en';

/**
 * English ships with the app; the other languages load on first use, so a visitor downloads
 * only the language they read.
 */
const lazyLocales: Record<Exclude<Language, 'en'>, () => Promise<unknown>> = {
  ru: () => import('./locales/ru').then((module) => module.ru),
  es: () => import('./locales/es').then((module) => module.es),
};

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, _namespace: string, callback: ReadCallback) {
    const load = isLanguage(language) && language !== 'en' ? lazyLocales[language] : null;
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (resources) => callback(null, resources as Record<string, string>),
      (error: unknown) => callback(error as Error, null),
    );
  },
};

let initialised: Promise<unknown> | null = null;

/** Starts i18next once, in English. */
export function initI18n(): Promise<unknown> {
  initialised ??= i18next
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: defaultLanguage,
      fallbackLng: defaultLanguage,
      supportedLngs: ['en', 'ru', 'es'],
      resources: { en: { translation: en } },
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  return initialised;
}

/** Switches the interface to `language`, loading it first; the URL decides which. */
export async function setLanguage(language: Language): Promise<void> {
  await initI18n();
  if (i18next.resolvedLanguage !== language || i18next.language !== language) {
    await i18next.changeLanguage(language);
  }
  document.documentElement.lang = language;
}

/** The language the interface is in now. */
export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : defaultLanguage;
}

export { i18next };

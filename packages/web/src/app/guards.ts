import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, type Params, redirect } from 'react-router';
import { ensureSystemParams, pairNames } from '../api/session';
import { currentLanguage, setLanguage } from '../i18n/i18n';
import {
  defaultLanguage,
  isLanguage,
  type Language,
  localizePath,
  looksLikeLanguageCode,
} from '../i18n/languages';
import { rememberActivePair } from '../lib/activePair';
import { rememberNotFoundPath, takeNotFoundPath } from '../lib/notFound';
import type { RouteEntry } from './routeCatalogue';

/** What the not-found route hands its page: the address that was missing, if stored. */
export interface NotFoundData {
  missingPath: string | null;
}

/** What the route loaders need from the app. */
export interface RouterContext {
  queryClient: QueryClient;
}

/** The language of a matched route: its `/{lang}` prefix, or English without one. */
export function languageOfParams(params: Params): Language {
  return isLanguage(params.lang) ? params.lang : defaultLanguage;
}

function pathAndSearch(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** Root of the English tree: the interface in English, the page globals loaded. */
export function englishRootLoader(context: RouterContext) {
  return async () => {
    await Promise.all([setLanguage('en'), ensureSystemParams(context.queryClient)]);
    return null;
  };
}

/**
 * Root of the `/{lang}` tree. A known language sets the interface language; `/en/...` drops
 * the prefix; an unknown language code goes to the same page in the current language; any
 * other first segment is not a language at all, so the path is unknown: to /not-found.
 */
export function prefixedRootLoader(context: RouterContext) {
  return async ({ params, request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const prefix = params.lang ?? '';
    const rest = url.pathname.slice(prefix.length + 1) || '/';
    const current = currentLanguage();
    if (prefix === defaultLanguage) throw redirect(rest + url.search + url.hash);
    if (!isLanguage(prefix)) {
      if (looksLikeLanguageCode(prefix)) {
        throw redirect(localizePath(rest + url.search + url.hash, current));
      }
      rememberNotFoundPath(url.pathname + url.search);
      throw redirect(localizePath('/not-found', current));
    }
    await Promise.all([setLanguage(prefix), ensureSystemParams(context.queryClient)]);
    return null;
  };
}

/** The catch-all: an unknown path is stored and sent to /not-found. */
export function unknownPathLoader({ params, request }: LoaderFunctionArgs): never {
  rememberNotFoundPath(pathAndSearch(request));
  throw redirect(localizePath('/not-found', languageOfParams(params)));
}

/** The rules of SPEC.md §2 that one screen's route follows before it renders. */
export function entryLoader(entry: RouteEntry, context: RouterContext) {
  return async ({ params, request }: LoaderFunctionArgs) => {
    const to = (path: string) => localizePath(path, languageOfParams(params));
    const system = await ensureSystemParams(context.queryClient);
    const signedIn = system.user !== null;
    if (entry.access === 'guest' && signedIn) throw redirect(to('/'));
    if (entry.access === 'user' && !signedIn) {
      throw redirect(to(`/login?redirect=${encodeURIComponent(pathAndSearch(request))}`));
    }
    switch (entry.rule) {
      case 'authAlias':
        throw redirect(to(`/login${new URL(request.url).search}`));
      case 'exchange':
        if (signedIn) throw redirect(to('/user/exchange'));
        break;
      case 'userExchange':
        if (!signedIn) throw redirect(to('/exchange'));
        break;
      case 'pair': {
        const base = entry.path.split('/')[0] ?? 'trade';
        const pair = params.pair ?? '';
        if (!pairNames(system).includes(pair)) throw redirect(to(`/${base}`));
        rememberActivePair(pair);
        break;
      }
      case 'notFound':
        return { missingPath: takeNotFoundPath() } satisfies NotFoundData;
      default:
        break;
    }
    return null;
  };
}

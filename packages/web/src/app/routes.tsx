import type { RouteObject } from 'react-router';
import { PlaceholderPage } from '../features/shell/PlaceholderPage';
import { RootLayout } from '../features/shell/RootLayout';
import { RouteError } from '../features/shell/RouteError';
import { Splash } from '../features/shell/Splash';
import {
  englishRootLoader,
  entryLoader,
  prefixedRootLoader,
  type RouterContext,
  unknownPathLoader,
} from './guards';
import { type RouteEntry, routeCatalogue } from './routeCatalogue';
import { screens } from './screens';

/** What the frame reads from the matched screen's route. */
export interface RouteHandle {
  title: string;
  header: boolean;
  footer: boolean;
}

function routeOf(entry: RouteEntry, context: RouterContext): RouteObject {
  const handle: RouteHandle = {
    title: entry.title,
    header: entry.header !== false,
    footer: entry.footer !== false,
  };
  const screen = entry.screen ? screens[entry.screen] : undefined;
  const shared = {
    loader: entryLoader(entry, context),
    handle,
    ...(screen
      ? { lazy: async () => ({ Component: (await screen()).default }) }
      : { element: <PlaceholderPage title={entry.title} /> }),
  };
  return entry.path === '' ? { ...shared, index: true } : { ...shared, path: entry.path };
}

/** The screens, wrapped in a boundary that keeps the header and footer when one fails. */
function screenRoutes(context: RouterContext): RouteObject[] {
  return [
    {
      errorElement: <RouteError />,
      children: [
        ...routeCatalogue.map((entry) => routeOf(entry, context)),
        // The loader always redirects; the element only keeps the router from warning.
        { path: '*', loader: unknownPathLoader, element: <Splash /> },
      ],
    },
  ];
}

/**
 * The whole route tree: every screen in English at its path, and again under `/{lang}`.
 * Static segments outrank the `:lang` segment, so `/login` is always the English page.
 */
export function createRoutes(context: RouterContext): RouteObject[] {
  return [
    {
      path: '/',
      id: 'root',
      loader: englishRootLoader(context),
      element: <RootLayout />,
      hydrateFallbackElement: <Splash />,
      errorElement: <RouteError fullPage />,
      children: screenRoutes(context),
    },
    {
      path: '/:lang',
      id: 'root-lang',
      loader: prefixedRootLoader(context),
      element: <RootLayout />,
      hydrateFallbackElement: <Splash />,
      errorElement: <RouteError fullPage />,
      children: screenRoutes(context),
    },
  ];
}

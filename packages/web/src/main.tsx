import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { setCsrfRefresher } from './api/client';
import { createQueryClient } from './api/queryClient';
import { systemParamsQuery } from './api/session';
import { createRoutes } from './app/routes';
import { initI18n } from './i18n/i18n';
import { trackLinkClicks } from './lib/lastClickedLink';
import { mainHostUrl } from './lib/referralHost';
import { applyTheme, currentTheme } from './lib/theme';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const mainHost = mainHostUrl(new URL(window.location.href));
if (mainHost) window.location.replace(mainHost);

applyTheme(currentTheme());
trackLinkClicks();
const queryClient = createQueryClient();
setCsrfRefresher(async () => {
  await queryClient.fetchQuery({ ...systemParamsQuery, staleTime: 0 });
});
const router = createBrowserRouter(createRoutes({ queryClient }));

void initI18n().then(() =>
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ),
);

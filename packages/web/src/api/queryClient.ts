import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './apiError';

/** Cache times of SPEC.md §9. */
export const cacheMs = {
  lists: 60_000,
  planDetails: 300_000,
  withdrawalLimit: 10_000,
  countryList: 3_600_000,
  tradeSettings: 60_000,
} as const;

/** The app's query client: answers stay fresh for 60 s; client errors are not retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: cacheMs.lists,
        refetchOnWindowFocus: false,
        retry: (failures, error) =>
          failures < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}

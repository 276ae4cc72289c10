import type { SessionUser } from '@lattice/contracts';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api, setCsrfToken } from './client';
import { cacheMs } from './queryClient';

/** A market as the page globals list it: a name, or an object naming it. */
type MarketEntry = string | { name?: string; pairName?: string };

/** The page globals of `GET /api/systemParams` (API.md "Bootstrap"). */
export interface SystemParams {
  csrfToken: string;
  appName: string;
  defaultPair: string;
  lttPair: string;
  marketList: MarketEntry[];
  marginPairs: string[];
  fiatTickers: string[];
  stableTickers: string[];
  socialLinks: Record<string, string>;
  wsToken: string | null;
  user: SessionUser | null;
}

export const systemParamsKey = ['systemParams'] as const;

export const systemParamsQuery = queryOptions({
  queryKey: systemParamsKey,
  queryFn: async () => {
    const params = await api.get<SystemParams>('/systemParams');
    setCsrfToken(params.csrfToken);
    return params;
  },
  staleTime: cacheMs.lists,
});

/** The page globals, loaded before the first screen by the root route. */
export function ensureSystemParams(queryClient: QueryClient): Promise<SystemParams> {
  return queryClient.ensureQueryData(systemParamsQuery);
}

/** Reads the page globals; the root route has loaded them before any screen renders. */
export function useSystemParams(): SystemParams | undefined {
  return useQuery(systemParamsQuery).data;
}

export function useSessionUser(): SessionUser | null {
  return useSystemParams()?.user ?? null;
}

/** The pair names of the market list, whatever shape its entries have. */
export function pairNames(params: Pick<SystemParams, 'marketList'> | undefined): string[] {
  const names: string[] = [];
  for (const entry of params?.marketList ?? []) {
    const name = typeof entry === 'string' ? entry : (entry.name ?? entry.pairName);
    if (name) names.push(name);
  }
  return names;
}

/**
 * After sign-in or sign-out: drop every cached answer that belonged to the previous user and
 * load the page globals (new user, new socket token) again.
 */
export async function resetSession(queryClient: QueryClient): Promise<SystemParams> {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== systemParamsKey[0] });
  return queryClient.fetchQuery({ ...systemParamsQuery, staleTime: 0 });
}

/** Marks the user signed out at once, e.g. on a 401, before the globals are reloaded. */
export function forgetUser(queryClient: QueryClient): void {
  queryClient.setQueryData(systemParamsKey, (params: SystemParams | undefined) =>
    params ? { ...params, user: null, wsToken: null } : params,
  );
}

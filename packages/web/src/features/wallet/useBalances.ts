import { useQuery } from '@tanstack/react-query';
import { walletApi, walletKeys } from './walletApi';

/** The user's balances; kept for a moment only, as they change with every trade. */
export function useBalances(enabled = true) {
  return useQuery({
    queryKey: walletKeys.balances,
    queryFn: walletApi.balances,
    staleTime: 555,
    enabled,
  });
}

/** One asset's balance row, or undefined while loading or for an unknown ticker. */
export function useBalance(ticker: string) {
  const balances = useBalances();
  return { ...balances, balance: balances.data?.find((row) => row.ticker === ticker) };
}

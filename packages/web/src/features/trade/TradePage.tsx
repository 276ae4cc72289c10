import type { MarketListItemJson } from '@lattice/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { useSessionUser, useSystemParams } from '../../api/session';
import { splitLanguage } from '../../i18n/languages';
import { activePair } from '../../lib/activePair';
import { AccountTabs } from './AccountTabs';
import { MarketHeader } from './MarketHeader';
import { OrderBook } from './OrderBook';
import { OrderForms } from './OrderForms';
import { PairList } from './PairList';
import { RecentTrades } from './RecentTrades';
import styles from './trade.module.css';
import { marketListQuery, tickerQuery } from './tradeApi';
import { useLeaveConfirm } from './useLeaveConfirm';
import { useLiveMarket } from './useLiveMarket';

const CandleChart = lazy(() => import('./CandleChart'));

/** Pro spot (`/trade/{pair}`) and classic spot (`/trade_classic/{pair}`): one screen, two layouts. */
export default function TradePage() {
  const { t } = useTranslation();
  const { pair: routePair } = useParams();
  const params = useSystemParams();
  const signedIn = useSessionUser() !== null;
  const classic = splitLanguage(useLocation().pathname).path.startsWith('/trade_classic');
  const pair = routePair ?? activePair() ?? params?.defaultPair ?? '';
  const market = useQuery(marketListQuery).data?.items.find((item) => item.name === pair);
  const ticker = useQuery(tickerQuery(pair)).data?.[0];
  const [dirty, setDirty] = useState(false);
  useLeaveConfirm(dirty);
  useLiveMarket(pair, market ? [market.stock, market.money] : undefined);

  return (
    <div className={`${styles.screen} ${classic ? styles.classic : ''}`} data-testid="trade-screen">
      <h1 className={styles.screenTitle}>{t(classic ? 'routes.tradeClassic' : 'routes.trade')}</h1>
      <MarketHeader pair={pair} ticker={ticker} />
      {market && (
        <TradePanels
          market={market}
          pair={pair}
          classic={classic}
          signedIn={signedIn}
          lastPrice={ticker?.last}
          onDirtyChange={setDirty}
        />
      )}
    </div>
  );
}

interface TradePanelsProps {
  market: MarketListItemJson;
  pair: string;
  classic: boolean;
  signedIn: boolean;
  lastPrice: string | undefined;
  onDirtyChange: (dirty: boolean) => void;
}

/** The panels that need the market's rules: book, chart, forms, trades, open orders. */
function TradePanels({
  market,
  pair,
  classic,
  signedIn,
  lastPrice,
  onDirtyChange,
}: TradePanelsProps) {
  const [picked, setPicked] = useState<{ price: string; at: number }>();
  const pickPrice = useCallback((price: string) => setPicked({ price, at: Date.now() }), []);
  return (
    <>
      <OrderBook market={market} lastPrice={lastPrice} onPickPrice={pickPrice} />
      {!classic && <PairList pair={pair} signedIn={signedIn} />}
      {!classic && (
        <Suspense fallback={<section className={`${styles.panel} ${styles.chart}`} />}>
          <CandleChart pair={pair} />
        </Suspense>
      )}
      <OrderForms
        market={market}
        signedIn={signedIn}
        pickedPrice={picked}
        lastPrice={lastPrice}
        onDirtyChange={onDirtyChange}
      />
      <RecentTrades pair={pair} />
      {signedIn && <AccountTabs pair={pair} />}
    </>
  );
}

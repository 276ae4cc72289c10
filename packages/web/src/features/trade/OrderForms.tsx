import type { MarketListItemJson } from '@lattice/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { OrderForm } from './OrderForm';
import styles from './trade.module.css';
import { balancesQuery, type OrderKind, tradeSettingsQuery } from './tradeApi';

const kinds: readonly OrderKind[] = ['limit', 'market', 'stopLimit', 'oco'];

interface OrderFormsProps {
  market: MarketListItemJson;
  signedIn: boolean;
  pickedPrice: { price: string; at: number } | undefined;
  lastPrice: string | undefined;
  onDirtyChange: (dirty: boolean) => void;
}

/** The kind tabs over a buy and a sell form; signed out, the prompt to sign in instead. */
export function OrderForms(props: OrderFormsProps) {
  const { market, signedIn, pickedPrice, lastPrice, onDirtyChange } = props;
  const { t } = useTranslation();
  const [kind, setKind] = useState<OrderKind>('limit');
  const dirtySides = useRef({ buy: false, sell: false });
  const settings = useQuery(tradeSettingsQuery).data;
  const balances = useQuery({ ...balancesQuery, enabled: signedIn }).data;
  const availableOf = (ticker: string) =>
    signedIn ? (balances?.find((row) => row.ticker === ticker)?.tradeAvailable ?? '0') : undefined;
  const markDirty = useCallback(
    (side: 'buy' | 'sell', dirty: boolean) => {
      dirtySides.current[side] = dirty;
      onDirtyChange(dirtySides.current.buy || dirtySides.current.sell);
    },
    [onDirtyChange],
  );
  const onBuyDirty = useCallback((dirty: boolean) => markDirty('buy', dirty), [markDirty]);
  const onSellDirty = useCallback((dirty: boolean) => markDirty('sell', dirty), [markDirty]);

  return (
    <section className={`${styles.panel} ${styles.forms}`}>
      <div className={styles.tabs} role="tablist">
        {kinds.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={kind === name}
            className={`${styles.tab} ${kind === name ? styles.tabActive : ''}`}
            onClick={() => setKind(name)}
          >
            {t(`trade.kinds.${name}`)}
          </button>
        ))}
      </div>
      {!signedIn && (
        <div className={styles.loginPrompt} data-testid="login-required">
          <p>{t('trade.loginRequired')}</p>
          <Link to="/login">{t('trade.signIn')}</Link>
        </div>
      )}
      {signedIn && (
        <div className={styles.formPair}>
          <OrderForm
            market={market}
            kind={kind}
            side="buy"
            available={availableOf(market.money)}
            feeRate={settings?.fee}
            pickedPrice={pickedPrice}
            lastPrice={lastPrice}
            onDirtyChange={onBuyDirty}
          />
          <OrderForm
            market={market}
            kind={kind}
            side="sell"
            available={availableOf(market.stock)}
            feeRate={settings?.fee}
            pickedPrice={pickedPrice}
            lastPrice={lastPrice}
            onDirtyChange={onSellDirty}
          />
        </div>
      )}
    </section>
  );
}

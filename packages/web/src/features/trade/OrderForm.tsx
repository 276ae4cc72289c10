import type { MarketListItemJson } from '@lattice/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/apiError';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { showToast } from '../../ui/toastStore';
import {
  emptyFields,
  type FieldName,
  type FormFields,
  feeSummary,
  fieldsOf,
  type MarketBy,
  validateFields,
  withFieldTyped,
  withShareOfBalance,
} from './orderFormState';
import type { Side } from './orderMath';
import { unitsOf } from './orderMath';
import styles from './trade.module.css';
import { balancesKey, type OrderKind, openOrdersKey, placeOrder } from './tradeApi';

const shares = [25, 50, 75, 100] as const;
/** The request's field names of the form's fields. */
const requestFields: Record<string, FieldName> = {
  price: 'price',
  stop_price: 'stopPrice',
  limit_price: 'limitPrice',
  amount: 'amount',
  total: 'total',
};

/** The server's messages on the form's fields: the first of each. */
function formErrorsOf(byField: Record<string, string[]>): Partial<Record<FieldName, string>> {
  const errors: Partial<Record<FieldName, string>> = {};
  for (const [name, messages] of Object.entries(byField)) {
    const field = requestFields[name];
    if (field && messages[0]) errors[field] = messages[0];
  }
  return errors;
}
const noticeMs = 5000;

export interface OrderFormProps {
  market: Pick<MarketListItemJson, 'name' | 'stock' | 'money'>;
  kind: OrderKind;
  side: Side;
  /** What the side spends: money for a buy, stock for a sell; undefined when signed out. */
  available: string | undefined;
  /** The taker rate as a fraction ("0.002"); undefined when not known yet. */
  feeRate: string | undefined;
  /** The market's last price, for the stop and OCO price rules; undefined when not known. */
  lastPrice?: string | undefined;
  /** A price picked in the order book; a new value fills the price field. */
  pickedPrice?: { price: string; at: number } | undefined;
  onDirtyChange?: (dirty: boolean) => void;
}

/** One side's order form: fields of the chosen kind, balance shares, fee and total with fee. */
export function OrderForm(props: OrderFormProps) {
  const { market, kind, side, available, feeRate, lastPrice, pickedPrice, onDirtyChange } = props;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [fields, setFields] = useState<FormFields>(emptyFields);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [marketBy, setMarketBy] = useState<MarketBy>('amount');
  const shown = fieldsOf(kind, side, marketBy);
  const byTotal = !shown.includes('amount');
  const availableUnits = available === undefined ? null : unitsOf(available);

  // NOTE: a new pair or kind starts from empty fields (SPEC.md §4).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these changes only.
  useEffect(() => {
    setFields(emptyFields);
    setErrors({});
  }, [market.name, kind, marketBy]);

  useEffect(() => {
    if (pickedPrice) setFields((current) => withFieldTyped(current, 'price', pickedPrice.price));
  }, [pickedPrice]);

  const dirty = fields.amount !== '' || fields.total !== '';
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const place = useMutation({
    mutationFn: () =>
      placeOrder({
        kind,
        pair: market.name,
        direction: side,
        amount: fields.amount,
        price: fields.price,
        stopPrice: fields.stopPrice,
        limitPrice: fields.limitPrice,
        ...(byTotal ? { total: fields.total } : {}),
      }),
    onSuccess: () => {
      showToast({ kind: 'success', text: t('trade.orderCreated'), durationMs: noticeMs });
      setFields(emptyFields);
      void queryClient.invalidateQueries({ queryKey: openOrdersKey });
      void queryClient.invalidateQueries({ queryKey: balancesKey });
    },
    onError: (error) => {
      const byField = isApiError(error) ? (error.fieldErrors ?? {}) : {};
      const messages = Object.values(byField).flat();
      const shown = messages.length ? messages : [isApiError(error) ? error.message : ''];
      for (const text of shown) {
        showToast({ kind: 'error', title: t('trade.orderNotCreated'), text, durationMs: noticeMs });
      }
      // The form is marked too, on the fields the server named (SPEC.md §8).
      setErrors(formErrorsOf(byField));
    },
  });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const broken = validateFields(fields, {
      kind,
      side,
      marketBy,
      available: availableUnits,
      feeRate,
      lastPrice: lastPrice === undefined ? null : unitsOf(lastPrice),
    });
    setErrors(
      Object.fromEntries(Object.entries(broken).map(([name, key]) => [name, t(`trade.${key}`)])),
    );
    if (Object.keys(broken).length === 0) place.mutate();
  }

  const ticker = (name: FieldName) => (name === 'amount' ? market.stock : market.money);
  const byOptions: readonly MarketBy[] = ['amount', 'total'];
  const summary = kind === 'market' ? null : feeSummary(fields, side, feeRate);
  return (
    <form
      className={styles.orderForm}
      onSubmit={handleSubmit}
      noValidate
      data-testid={`order-form-${side}`}
    >
      <div className={styles.available}>
        {t('trade.available')}: {available ?? '—'} {side === 'buy' ? market.money : market.stock}
      </div>
      {kind === 'market' && side === 'buy' && (
        <fieldset className={styles.marketBy} aria-label={t('trade.marketBy')}>
          {byOptions.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={marketBy === option}
              className={`${styles.share} ${marketBy === option ? styles.tabActive : ''}`}
              onClick={() => setMarketBy(option)}
            >
              {t(option === 'amount' ? 'trade.byAmount' : 'trade.byTotal')}
            </button>
          ))}
        </fieldset>
      )}
      {shown.map((name) => (
        <TextField
          key={name}
          label={`${t(`trade.${name}`)} (${ticker(name)})`}
          inputMode="decimal"
          autoComplete="off"
          value={fields[name]}
          errors={errors[name] ? [errors[name]] : undefined}
          onChange={(event) => setFields(withFieldTyped(fields, name, event.target.value))}
        />
      ))}
      {availableUnits !== null && (
        <div className={styles.shares}>
          {shares.map((percent) => (
            <button
              key={percent}
              type="button"
              className={styles.share}
              onClick={() =>
                setFields(withShareOfBalance(fields, side, percent, availableUnits, byTotal))
              }
            >
              {percent}%
            </button>
          ))}
        </div>
      )}
      {summary && (
        <dl className={styles.summary}>
          <dt>{t('trade.fee')}</dt>
          <dd data-testid={`fee-${side}`}>
            {summary.fee} {market.money}
          </dd>
          <dt>{t('trade.totalWithFee')}</dt>
          <dd data-testid={`total-with-fee-${side}`}>
            {summary.totalWithFee} {market.money}
          </dd>
        </dl>
      )}
      <Button
        type="submit"
        block
        variant={side === 'buy' ? 'primary' : 'danger'}
        loading={place.isPending}
        disabled={available === undefined}
      >
        {t(side === 'buy' ? 'trade.placeBuy' : 'trade.placeSell', { stock: market.stock })}
      </Button>
    </form>
  );
}

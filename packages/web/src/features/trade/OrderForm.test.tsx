import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { initI18n, setLanguage } from '../../i18n/i18n';
import { fieldErrors, installFakeApi } from '../../test/fakeApi';
import { clearToasts, toastStore } from '../../ui/toastStore';
import { OrderForm, type OrderFormProps } from './OrderForm';

beforeAll(async () => {
  await initI18n();
  await setLanguage('en');
});

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
});

const market = { name: 'BTC_USDT', stock: 'BTC', money: 'USDT' };

function renderForm(
  overrides: Partial<OrderFormProps> = {},
  routes: Parameters<typeof installFakeApi>[0] = {},
) {
  const api = installFakeApi({
    'POST /api/v2/order': { status: 201, body: { order: { id: 1 } } },
    'POST /api/v2/order/put_market': { status: 201, body: { order: { id: 2 } } },
    'POST /api/v2/stop-limit-order': { status: 201, body: { order: { id: 3 } } },
    'POST /api/v2/oco-order': { status: 201, body: { orders: [{ id: 4 }, { id: 5 }] } },
    ...routes,
  });
  const props: OrderFormProps = {
    market,
    kind: 'limit',
    side: 'buy',
    available: '1000',
    feeRate: '0.002',
    ...overrides,
  };
  render(
    <QueryClientProvider client={createQueryClient()}>
      <OrderForm {...props} />
    </QueryClientProvider>,
  );
  const form = screen.getByTestId(`order-form-${props.side}`);
  const field = (label: RegExp) => within(form).getByLabelText(label) as HTMLInputElement;
  const type = (label: RegExp, value: string) =>
    fireEvent.change(field(label), { target: { value } });
  const submit = () => fireEvent.submit(form);
  return { api, form, field, type, submit };
}

describe('order form arithmetic', () => {
  it('keeps total = price × amount and shows the fee and total with fee of a buy', () => {
    const { field, type } = renderForm();
    type(/^Price/, '65000,5');
    type(/^Amount/, '0.001');
    expect(field(/^Price/).value).toBe('65000.5');
    expect(field(/^Total/).value).toBe('65.0005');
    expect(screen.getByTestId('fee-buy').textContent).toBe('0.130001 USDT');
    expect(screen.getByTestId('total-with-fee-buy').textContent).toBe('65.130501 USDT');
  });

  it('takes the fee off what a sell receives', () => {
    const { type } = renderForm({ side: 'sell', available: '1' });
    type(/^Price/, '100');
    type(/^Amount/, '0.5');
    expect(screen.getByTestId('total-with-fee-sell').textContent).toBe('49.9 USDT');
  });

  it('sets the amount from a typed total, cut to 8 decimals', () => {
    const { field, type } = renderForm();
    type(/^Price/, '3');
    type(/^Total/, '100');
    expect(field(/^Amount/).value).toBe('33.33333333');
  });

  it('cuts input to 8 decimals and drops what is not a number', () => {
    const { field, type } = renderForm();
    type(/^Amount/, '1.123456789x');
    expect(field(/^Amount/).value).toBe('1.12345678');
  });

  it('fills the amount from a share of the balance', () => {
    const { field, type } = renderForm({ available: '1000' });
    type(/^Price/, '500');
    fireEvent.click(screen.getByRole('button', { name: '50%' }));
    expect(field(/^Amount/).value).toBe('1');
  });
});

describe('order form validation', () => {
  it('asks for every field of the kind before sending', () => {
    const { api, form, submit } = renderForm({ kind: 'stopLimit' });
    submit();
    expect(within(form).getAllByText('Field is required')).toHaveLength(3);
    expect(api.calls).toHaveLength(0);
  });

  it('refuses zero and an amount over the balance', () => {
    const { api, form, type, submit } = renderForm({ side: 'sell', available: '0.5' });
    type(/^Price/, '0');
    type(/^Amount/, '0.6');
    submit();
    expect(within(form).getByText('Must be greater than zero')).toBeTruthy();
    expect(within(form).getByText('Amount should not be greater than your balance!')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('counts the fee against a buyer’s balance', () => {
    const { form, type, submit } = renderForm({ available: '100' });
    type(/^Price/, '100');
    type(/^Amount/, '1');
    submit();
    expect(within(form).getByText('Amount should not be greater than your balance!')).toBeTruthy();
  });

  it('sends a valid limit order and says so', async () => {
    const { api, field, type, submit } = renderForm();
    type(/^Price/, '100');
    type(/^Amount/, '0.5');
    submit();
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/order')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/v2/order')[0]?.body).toEqual({
      pair: 'BTC_USDT',
      direction: 'buy',
      amount: '0.5',
      price: '100',
    });
    await waitFor(() => expect(field(/^Amount/).value).toBe(''));
    expect(toastStore.get().map((toast) => toast.text)).toContain('Order successfully created');
  });

  it('sends a market order by amount only', async () => {
    const { api, type, submit } = renderForm({ kind: 'market', side: 'sell', available: '2' });
    type(/^Amount/, '1,5');
    submit();
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/order/put_market')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/v2/order/put_market')[0]?.body).toEqual({
      pair: 'BTC_USDT',
      direction: 'sell',
      amount: '1.5',
    });
  });

  it('sends a market buy by what it spends, and checks that against the balance', async () => {
    const { api, form, field, type, submit } = renderForm({ kind: 'market', available: '250' });
    fireEvent.click(within(form).getByRole('button', { name: 'By total' }));
    expect(within(form).queryByLabelText(/^Amount/)).toBeNull();
    type(/^Total/, '300');
    submit();
    expect(within(form).getByText('Amount should not be greater than your balance!')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '50%' }));
    expect(field(/^Total/).value).toBe('125');
    submit();
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/order/put_market')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/v2/order/put_market')[0]?.body).toEqual({
      pair: 'BTC_USDT',
      direction: 'buy',
      total: '125',
    });
  });

  it('offers by total to a market buy only', () => {
    const { form } = renderForm({ kind: 'market', side: 'sell' });
    expect(within(form).queryByRole('button', { name: 'By total' })).toBeNull();
  });
});

describe('stop and OCO price rules', () => {
  it('wants a buy stop above the last price and a sell stop below it', () => {
    const buy = renderForm({ kind: 'stopLimit', lastPrice: '100' });
    buy.type(/^Stop/, '100');
    buy.type(/^Price/, '101');
    buy.type(/^Amount/, '0.1');
    buy.submit();
    expect(within(buy.form).getByText('Must be greater than last market price')).toBeTruthy();
    expect(buy.api.calls).toHaveLength(0);
    cleanup();

    const sell = renderForm({ kind: 'stopLimit', side: 'sell', available: '1', lastPrice: '100' });
    sell.type(/^Stop/, '100.5');
    sell.type(/^Price/, '99');
    sell.type(/^Amount/, '0.1');
    sell.submit();
    expect(within(sell.form).getByText('Must be less than last market price')).toBeTruthy();
    expect(sell.api.calls).toHaveLength(0);
  });

  it('sends a stop-limit whose stop is on the right side', async () => {
    const { api, type, submit } = renderForm({ kind: 'stopLimit', lastPrice: '100' });
    type(/^Stop/, '100.01');
    type(/^Price/, '101');
    type(/^Amount/, '0.1');
    submit();
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/stop-limit-order')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/v2/stop-limit-order')[0]?.body).toEqual({
      pair: 'BTC_USDT',
      direction: 'buy',
      amount: '0.1',
      price: '101',
      stop_price: '100.01',
    });
  });

  it('wants an OCO sell with stop price < last < price, on each broken field', () => {
    const { api, field, type, submit } = renderForm({
      kind: 'oco',
      side: 'sell',
      available: '1',
      lastPrice: '100',
    });
    type(/^Price/, '100');
    type(/^Stop/, '101');
    type(/^Limit/, '100');
    type(/^Amount/, '0.1');
    submit();
    // The messages the input is described by: each rule lands on its own field.
    const errorOf = (label: RegExp) => {
      const id = field(label).getAttribute('aria-describedby');
      return id ? (document.getElementById(id)?.textContent ?? '') : '';
    };
    expect(errorOf(/^Price/)).toContain('Must be greater than last market price');
    expect(errorOf(/^Stop/)).toContain('Must be less than last market price');
    expect(errorOf(/^Limit/)).toBe('');
    expect(api.calls).toHaveLength(0);
  });

  it('sends an OCO buy with price < last < stop price', async () => {
    const { api, form, type, submit } = renderForm({ kind: 'oco', lastPrice: '100' });
    type(/^Price/, '99');
    type(/^Stop/, '101');
    type(/^Limit/, '102');
    type(/^Amount/, '0.1');
    submit();
    expect(within(form).queryByText(/last market price/)).toBeNull();
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/oco-order')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/v2/oco-order')[0]?.body).toEqual({
      pair: 'BTC_USDT',
      direction: 'buy',
      amount: '0.1',
      price: '99',
      stop_price: '101',
      limit_price: '102',
    });
  });

  it('leaves the rules to the server while the last price is unknown', async () => {
    const { api, type, submit } = renderForm({ kind: 'stopLimit' });
    type(/^Stop/, '1');
    type(/^Price/, '1');
    type(/^Amount/, '0.1');
    submit();
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/stop-limit-order')).toHaveLength(1));
  });

  it('marks the fields the server refused, and says so', async () => {
    const refused = fieldErrors({ stop_price: ['Must be less than last market price'] });
    const { field, type, submit } = renderForm(
      { kind: 'oco', side: 'sell', available: '1' },
      { 'POST /api/v2/oco-order': refused },
    );
    type(/^Price/, '110');
    type(/^Stop/, '95');
    type(/^Limit/, '94');
    type(/^Amount/, '0.1');
    submit();
    await waitFor(() => expect(field(/^Stop/).getAttribute('aria-invalid')).toBe('true'));
    expect(field(/^Price/).getAttribute('aria-invalid')).toBeNull();
    expect(toastStore.get().map((toast) => [toast.title, toast.text])).toEqual([
      ['Your order was not created', 'Must be less than last market price'],
    ]);
  });
});

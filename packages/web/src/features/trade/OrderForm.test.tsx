import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { initI18n, setLanguage } from '../../i18n/i18n';
import { installFakeApi } from '../../test/fakeApi';
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

function renderForm(overrides: Partial<OrderFormProps> = {}) {
  const api = installFakeApi({
    'POST /api/v2/order': { status: 201, body: { order: { id: 1 } } },
    'POST /api/v2/order/put_market': { status: 201, body: { order: { id: 2 } } },
    'POST /api/v2/stop-limit-order': { status: 201, body: { order: { id: 3 } } },
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
});

// Set-up shared by the wallet screen tests (wallet list, deposits and withdrawals, codes).
import { fireEvent, screen } from '@testing-library/react';
import { buildUser, type FakeRoute } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { buildBalance } from './walletFakes';

/** Types `value` into the field labelled `label`. */
export function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

/** The app at `path`, signed in as `user`, over a fake API answering `routes`. */
export function open(path: string, routes: Record<string, FakeRoute>, user = buildUser()) {
  return renderApp(path, { params: { user }, routes });
}

/** BTC on main and trade, ETH empty, USDT on main only. */
export const balances = [
  buildBalance(),
  buildBalance({
    ticker: 'ETH',
    label: 'Ethereum',
    fullBalance: '0',
    fullBalanceBtc: '0',
    mainBalance: '0',
    tradeAvailable: '0',
    tradeFreeze: '0',
  }),
  buildBalance({ ticker: 'USDT', label: 'Tether', mainBalance: '100', fullBalance: '100' }),
];

import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/locales/en';
import { walletMessage } from './walletMessages';

/** A `t` that names the key and its values, so the mapping itself is what is checked. */
const t = (key: string, values?: Record<string, string>) =>
  values ? `${key} ${JSON.stringify(values)}` : key;

describe('wallet messages', () => {
  it('maps the wallet’s server messages to their keys, with the values of the patterns', () => {
    expect(walletMessage('Amount should not be greater than your balance!', t)).toBe(
      'wallet.messages.overBalance',
    );
    expect(walletMessage('Deposit/Withdrawal for BTC is disabled', t)).toBe(
      'wallet.messages.disabled {"value":"BTC"}',
    );
    expect(walletMessage('Withdrawal limit exceeded: 500 USD per 24 h', t)).toBe(
      'wallet.messages.limitUsdDay {"value":"500"}',
    );
    // Shared messages go through the common catalogue; unknown ones stay as they came.
    expect(walletMessage('Wrong 2FA code', t)).toBe('validation.twoFactorInvalid');
    expect(walletMessage('Something new', t)).toBe('Something new');
  });

  it('has an English text for every wallet message key it maps to', () => {
    const keys = Object.keys(en.wallet.messages);
    for (const message of [
      'Must be greater than zero',
      'You must pass personal verification.',
      'Code activation error',
      'You cant create new address while your current is not used.',
    ]) {
      const key = walletMessage(message, t).replace('wallet.messages.', '');
      expect(keys).toContain(key);
    }
  });
});

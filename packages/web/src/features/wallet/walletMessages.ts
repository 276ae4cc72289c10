import { translateMessage } from '../../i18n/messageKeys';

/**
 * The wallet's English server messages (SPEC.md §5, §8) and their keys under `wallet.messages.`,
 * so they show in the reader's language; the shared ones go through `translateMessage`.
 */
const walletMessages: Record<string, string> = {
  'Amount should not be greater than your balance!': 'overBalance',
  'Must be greater than zero': 'greaterThanZero',
  'Not enough on balance': 'notEnough',
  'Address is not valid for this network': 'addressInvalid',
  'This address is not in your whitelist': 'notWhitelisted',
  'You must pass personal verification.': 'kycRequired',
  'Code activation error': 'codeActivation',
  'Code not found': 'codeNotFound',
  'The code is already used or cancelled': 'codeNotActive',
  'You cant create new address while your current is not used.': 'addressNotUsed',
  'Withdrawals are paused for 3 days after a password change': 'withdrawalBlocked',
  'Withdrawal limit exceeded: 1 BTC per week in value': 'limitBtcWeek',
  'This currency does not move on that network': 'networkNotFound',
  'Unknown currency': 'unknownCurrency',
  'Address not found': 'addressNotFound',
};

const patterns: readonly [RegExp, string, string][] = [
  [/^Deposit\/Withdrawal for (.+) is disabled$/, 'disabled', 'value'],
  [/^Withdrawal limit exceeded: (.+) USD per 24 h$/, 'limitUsdDay', 'value'],
];

type Translate = (key: string, values?: Record<string, string>) => string;

/** A server or form message in the reader's language, wallet messages included. */
export function walletMessage(message: string, t: Translate): string {
  const key = walletMessages[message];
  if (key) return t(`wallet.messages.${key}`);
  for (const [pattern, patternKey, name] of patterns) {
    const match = pattern.exec(message);
    if (match?.[1]) return t(`wallet.messages.${patternKey}`, { [name]: match[1] });
  }
  return translateMessage(message, t);
}

/** Every message of a field, translated. */
export function translateAll(messages: readonly string[], t: Translate): string[] {
  return messages.map((message) => walletMessage(message, t));
}

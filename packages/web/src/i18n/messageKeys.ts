/**
 * The server and the shared schemas speak English (SPEC.md §5 messages). This maps each known
 * message to its key under `validation.`, so a form shows it in the reader's language; an
 * unknown message is shown as it came.
 */
const exactMessages: Record<string, string> = {
  'Field is required': 'required',
  'Email is not valid': 'email',
  'Wrong email address': 'email',
  'Email already in use': 'emailInUse',
  "We didn't support this country": 'country',
  'Password needs a lowercase letter, an uppercase letter, a number and a special character':
    'passwordStrength',
  'Field should match': 'shouldMatch',
  'Field should not match': 'shouldNotMatch',
  'Only digits': 'onlyDigits',
  'Only letters': 'onlyLetters',
  'Only alphanumeric': 'onlyAlphanumeric',
  'Field error': 'fieldError',
  'Form is not valid': 'formInvalid',
  'Please fill the form': 'fillForm',
  'Wrong email or password': 'wrongCredentials',
  'The code is wrong or has expired': 'codeInvalid',
  'Wrong 2FA code': 'twoFactorInvalid',
  'Token is required': 'tokenRequired',
  'Nickname can be changed only once': 'nicknameLocked',
  'The link is invalid or has expired': 'linkInvalid',
  'Please confirm your e-mail first: we have sent the link again': 'emailNotConfirmed',
  'Turn on two-factor authentication first': 'twoFactorRequired',
  'Too many requests, please try again later': 'rateLimited',
  'Error on server': 'serverError',
  'Something went wrong.': 'somethingWrong',
  'Something happen with your network connection.': 'network',
  'Wrong password': 'wrongPassword',
  'Nickname already in use': 'nicknameInUse',
  'Generate a secret first': 'generateSecretFirst',
  'Set an anti-phishing code first': 'antiPhishingCodeFirst',
  'Session not found': 'sessionNotFound',
  'API key not found': 'apiKeyNotFound',
  'You need to be logged in': 'authRequired',
};

const patterns: readonly [RegExp, string, string][] = [
  [/^Length should be (\d+)$/, 'length', 'length'],
  [/^Min length (\d+)$/, 'minLength', 'length'],
  [/^Max length (\d+)$/, 'maxLength', 'length'],
  [/^Min value (.+)$/, 'minValue', 'value'],
  [/^Max value (.+)$/, 'maxValue', 'value'],
];

export interface MessageKey {
  key: string;
  values?: Record<string, string>;
}

/** The translation key of a known English message, or null. */
export function messageKeyOf(message: string): MessageKey | null {
  const exact = exactMessages[message];
  if (exact) return { key: `validation.${exact}` };
  for (const [pattern, key, name] of patterns) {
    const match = pattern.exec(message);
    if (match?.[1]) return { key: `validation.${key}`, values: { [name]: match[1] } };
  }
  return null;
}

/** `message` in the reader's language when it is a known one. */
export function translateMessage(
  message: string,
  t: (key: string, values?: Record<string, string>) => string,
): string {
  const known = messageKeyOf(message);
  return known ? t(known.key, known.values) : message;
}

/** Sign-up, sign-in and password screens. */
export const auth = {
  backToLogin: 'Back to sign in',
  fields: {
    email: 'E-mail',
    password: 'Password',
    newPassword: 'New password',
    passwordConfirmation: 'Repeat the password',
    country: 'Country of residence',
    referralCode: 'Referral code (optional)',
    deviceCode: 'Code from the e-mail',
    twoFactorCode: '2FA code',
  },
  login: {
    googleFailed: 'Google sign-in failed, please try again.',
    googleNoEmail: 'Your Google account has no verified e-mail address.',
    title: 'Sign in',
    subtitle: 'Welcome back to Lattice Exchange.',
    submit: 'Sign in',
    forgot: 'Forgot password?',
    noAccount: 'No account yet?',
    or: 'or',
    google: 'Sign in with Google',
  },
  register: {
    googleSubtitle: 'One more step to finish signing up with Google.',
    googleAs: 'Signing up as {{email}}.',
    title: 'Create an account',
    subtitle: 'Trade spot and margin, stake LTT and more.',
    submit: 'Sign up',
    haveAccount: 'Already have an account?',
    passwordHint:
      '8 characters or more, with a lowercase and an uppercase letter, a number and a special character.',
    chooseCountry: 'Choose a country',
    acceptPrivacy: 'I accept the',
    notResident:
      'I am not a citizen or resident of a country where the exchange does not operate (such as the United States).',
  },
  checkEmail: {
    title: 'Check your inbox',
    sentTo: 'We have sent a confirmation link to {{email}}. Open it to activate your account.',
    sent: 'We have sent you a confirmation link. Open it to activate your account.',
    notArrived:
      'Nothing arrived? Check the spam folder. Signing in with an unconfirmed address sends the link again.',
  },
  verify: {
    title: 'E-mail confirmation',
    checking: 'Confirming your e-mail…',
    confirmed: 'Your e-mail is confirmed. Welcome to Lattice Exchange!',
    linkNotFull: 'Your link is not full',
  },
  device: {
    title: 'Confirm this device',
    subtitle: 'This is a new device for your account. Enter the 6-digit code we sent to {{email}}.',
    submit: 'Confirm and sign in',
    resend: 'Send a new code',
    resent: 'A new code is on its way',
    expired: 'This step has expired. Please sign in again.',
  },
  twoFactor: {
    title: 'Two-factor authentication',
    subtitle: 'Enter the 6-digit code from your authenticator app.',
    submit: 'Sign in',
  },
  forgot: {
    title: 'Forgot password',
    subtitle: 'Enter your e-mail and we will send you a link to choose a new password.',
    submit: 'Send the link',
    sent: 'If such an email exists in the system, then we sent an email to reset the password',
    resend: 'Send it again',
  },
  reset: {
    title: 'Choose a new password',
    submit: 'Save the new password',
    done: 'Your password has been changed. Please sign in.',
    askAgain: 'Ask for a new link',
  },
  google: {
    title: 'Sign in with Google',
    unavailable:
      'Google sign-in is not available on this exchange. Please use your e-mail and password.',
    continue: 'Continue with Google',
  },
};

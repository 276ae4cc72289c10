/** Mail wording per language. `{name}` placeholders are filled by `renderMail`. */

export const MAIL_LANGUAGES = ['en', 'ru', 'es'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export type MailKind =
  | 'verify_email'
  | 'device_code'
  | 'password_reset'
  | 'password_changed'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'api_key_created'
  | 'withdrawal_confirm';

export interface MailWording {
  subject: string;
  /** Paragraphs; a paragraph that is exactly `{action}` becomes the link or the code. */
  body: string[];
}

interface LanguageStrings {
  antiPhishing: string;
  noAntiPhishing: string;
  footer: string;
  mails: Record<MailKind, MailWording>;
}

const en: LanguageStrings = {
  antiPhishing: 'Your anti-phishing code: {code}',
  noAntiPhishing: 'Set an anti-phishing code in your security settings to recognise our mail.',
  footer:
    'Lattice Exchange. If you did not expect this e-mail, ignore it and change your password.',
  mails: {
    verify_email: {
      subject: 'Confirm your e-mail',
      body: ['Welcome to Lattice Exchange.', 'Open this link to confirm your e-mail:', '{action}'],
    },
    device_code: {
      subject: 'Your sign-in code: {code}',
      body: [
        'Someone signed in to your account from a new device ({device}, IP {ip}).',
        'If it was you, enter this code to confirm the device. It expires in 15 minutes.',
        '{action}',
        'If it was not you, change your password at once.',
      ],
    },
    password_reset: {
      subject: 'Reset your password',
      body: ['Open this link to choose a new password. It expires in 1 hour.', '{action}'],
    },
    password_changed: {
      subject: 'Your password was changed',
      body: [
        'The password of your account was changed. Withdrawals are paused for 3 days.',
        'If you did not do this, contact support at once.',
      ],
    },
    two_factor_enabled: {
      subject: 'Two-factor authentication is on',
      body: ['Two-factor authentication was turned on for your account.'],
    },
    two_factor_disabled: {
      subject: 'Two-factor authentication is off',
      body: [
        'Two-factor authentication was turned off for your account. Your API keys were disabled.',
        'If you did not do this, contact support at once.',
      ],
    },
    api_key_created: {
      subject: 'A new API key was created',
      body: ['An API key was created for your account from IP {ip}.'],
    },
    withdrawal_confirm: {
      subject: 'Confirm your withdrawal of {amount} {ticker}',
      body: [
        'A withdrawal of {amount} {ticker} to {address} was requested with an API key of your account.',
        'To confirm it, open this link and press Confirm on the page it opens. It expires in 24 hours; until then the funds stay held.',
        '{action}',
        'If it was not you, cancel it in your withdrawal history and delete the API key.',
      ],
    },
  },
};

const ru: LanguageStrings = {
  antiPhishing: 'Ваш антифишинговый код: {code}',
  noAntiPhishing:
    'Задайте антифишинговый код в настройках безопасности, чтобы узнавать наши письма.',
  footer: 'Lattice Exchange. Если вы не ждали этого письма, проигнорируйте его и смените пароль.',
  mails: {
    verify_email: {
      subject: 'Подтвердите e-mail',
      body: [
        'Добро пожаловать в Lattice Exchange.',
        'Откройте ссылку, чтобы подтвердить e-mail:',
        '{action}',
      ],
    },
    device_code: {
      subject: 'Код для входа: {code}',
      body: [
        'В ваш аккаунт вошли с нового устройства ({device}, IP {ip}).',
        'Если это были вы, введите этот код, чтобы подтвердить устройство. Код действует 15 минут.',
        '{action}',
        'Если это были не вы, немедленно смените пароль.',
      ],
    },
    password_reset: {
      subject: 'Сброс пароля',
      body: ['Откройте ссылку, чтобы задать новый пароль. Она действует 1 час.', '{action}'],
    },
    password_changed: {
      subject: 'Пароль изменён',
      body: [
        'Пароль вашего аккаунта изменён. Вывод средств приостановлен на 3 дня.',
        'Если это сделали не вы, немедленно обратитесь в поддержку.',
      ],
    },
    two_factor_enabled: {
      subject: 'Двухфакторная аутентификация включена',
      body: ['Для вашего аккаунта включена двухфакторная аутентификация.'],
    },
    two_factor_disabled: {
      subject: 'Двухфакторная аутентификация выключена',
      body: [
        'Для вашего аккаунта выключена двухфакторная аутентификация. Ваши API-ключи отключены.',
        'Если это сделали не вы, немедленно обратитесь в поддержку.',
      ],
    },
    api_key_created: {
      subject: 'Создан новый API-ключ',
      body: ['Для вашего аккаунта создан API-ключ с IP {ip}.'],
    },
    withdrawal_confirm: {
      subject: 'Подтвердите вывод {amount} {ticker}',
      body: [
        'С API-ключом вашего аккаунта запрошен вывод {amount} {ticker} на адрес {address}.',
        'Чтобы подтвердить его, откройте ссылку и нажмите «Подтвердить» на открывшейся странице. Она действует 24 часа; до тех пор средства заморожены.',
        '{action}',
        'Если это были не вы, отмените вывод в истории выводов и удалите API-ключ.',
      ],
    },
  },
};

const es: LanguageStrings = {
  antiPhishing: 'Su código antiphishing: {code}',
  noAntiPhishing:
    'Configure un código antiphishing en sus ajustes de seguridad para reconocer nuestros correos.',
  footer: 'Lattice Exchange. Si no esperaba este correo, ignórelo y cambie su contraseña.',
  mails: {
    verify_email: {
      subject: 'Confirme su correo electrónico',
      body: [
        'Bienvenido a Lattice Exchange.',
        'Abra este enlace para confirmar su correo electrónico:',
        '{action}',
      ],
    },
    device_code: {
      subject: 'Su código de acceso: {code}',
      body: [
        'Alguien inició sesión en su cuenta desde un dispositivo nuevo ({device}, IP {ip}).',
        'Si fue usted, introduzca este código para confirmar el dispositivo. Caduca en 15 minutos.',
        '{action}',
        'Si no fue usted, cambie su contraseña de inmediato.',
      ],
    },
    password_reset: {
      subject: 'Restablezca su contraseña',
      body: ['Abra este enlace para elegir una contraseña nueva. Caduca en 1 hora.', '{action}'],
    },
    password_changed: {
      subject: 'Su contraseña ha cambiado',
      body: [
        'La contraseña de su cuenta ha cambiado. Los retiros quedan bloqueados durante 3 días.',
        'Si no fue usted, contacte con soporte de inmediato.',
      ],
    },
    two_factor_enabled: {
      subject: 'La autenticación de dos factores está activada',
      body: ['Se activó la autenticación de dos factores en su cuenta.'],
    },
    two_factor_disabled: {
      subject: 'La autenticación de dos factores está desactivada',
      body: [
        'Se desactivó la autenticación de dos factores en su cuenta. Sus claves API se desactivaron.',
        'Si no fue usted, contacte con soporte de inmediato.',
      ],
    },
    api_key_created: {
      subject: 'Se creó una nueva clave API',
      body: ['Se creó una clave API para su cuenta desde la IP {ip}.'],
    },
    withdrawal_confirm: {
      subject: 'Confirme su retiro de {amount} {ticker}',
      body: [
        'Se solicitó con una clave API de su cuenta un retiro de {amount} {ticker} a {address}.',
        'Para confirmarlo, abra este enlace y pulse Confirmar en la página que se abre. Caduca en 24 horas; hasta entonces los fondos quedan retenidos.',
        '{action}',
        'Si no fue usted, cancélelo en su historial de retiros y elimine la clave API.',
      ],
    },
  },
};

export const MAIL_STRINGS: Record<MailLanguage, LanguageStrings> = { en, ru, es };

import type { auth as english } from '../en/auth';
import type { Messages } from '../types';

export const auth: Messages<typeof english> = {
  backToLogin: 'Volver a iniciar sesión',
  fields: {
    email: 'Correo electrónico',
    password: 'Contraseña',
    newPassword: 'Nueva contraseña',
    passwordConfirmation: 'Repita la contraseña',
    country: 'País de residencia',
    referralCode: 'Código de referido (opcional)',
    deviceCode: 'Código del correo',
    twoFactorCode: 'Código 2FA',
  },
  login: {
    googleFailed: 'No se pudo iniciar sesión con Google, inténtelo de nuevo.',
    googleNoEmail: 'Su cuenta de Google no tiene un correo verificado.',
    title: 'Iniciar sesión',
    subtitle: 'Bienvenido de nuevo a Lattice Exchange.',
    submit: 'Iniciar sesión',
    forgot: '¿Olvidó su contraseña?',
    noAccount: '¿Aún no tiene cuenta?',
    or: 'o',
    google: 'Iniciar sesión con Google',
  },
  register: {
    googleSubtitle: 'Un paso más para terminar el registro con Google.',
    googleAs: 'Registro como {{email}}.',
    title: 'Crear una cuenta',
    subtitle: 'Opere spot y con margen, haga staking de LTT y mucho más.',
    submit: 'Registrarse',
    haveAccount: '¿Ya tiene una cuenta?',
    passwordHint:
      'Al menos 8 caracteres, con una minúscula, una mayúscula, un número y un carácter especial.',
    chooseCountry: 'Elija un país',
    acceptPrivacy: 'Acepto la',
    notResident:
      'No soy ciudadano ni residente de un país donde el exchange no opera (como Estados Unidos).',
  },
  checkEmail: {
    title: 'Revise su correo',
    sentTo: 'Hemos enviado un enlace de confirmación a {{email}}. Ábralo para activar su cuenta.',
    sent: 'Le hemos enviado un enlace de confirmación. Ábralo para activar su cuenta.',
    notArrived:
      '¿No ha llegado nada? Revise la carpeta de spam. Al iniciar sesión con un correo sin confirmar, el enlace se envía de nuevo.',
  },
  verify: {
    title: 'Confirmación del correo',
    checking: 'Confirmando su correo…',
    confirmed: 'Su correo está confirmado. ¡Bienvenido a Lattice Exchange!',
    linkNotFull: 'Su enlace está incompleto',
  },
  device: {
    title: 'Confirme este dispositivo',
    subtitle:
      'Este es un dispositivo nuevo para su cuenta. Introduzca el código de 6 dígitos enviado a {{email}}.',
    submit: 'Confirmar e iniciar sesión',
    resend: 'Enviar un código nuevo',
    resent: 'Le hemos enviado un código nuevo',
    expired: 'Este paso ha caducado. Inicie sesión de nuevo.',
  },
  twoFactor: {
    title: 'Autenticación en dos pasos',
    subtitle: 'Introduzca el código de 6 dígitos de su aplicación de autenticación.',
    submit: 'Iniciar sesión',
  },
  forgot: {
    title: 'Contraseña olvidada',
    subtitle: 'Introduzca su correo y le enviaremos un enlace para elegir una contraseña nueva.',
    submit: 'Enviar el enlace',
    sent: 'Si ese correo existe en el sistema, le hemos enviado un mensaje para restablecer la contraseña',
    resend: 'Enviar de nuevo',
  },
  reset: {
    title: 'Elija una contraseña nueva',
    submit: 'Guardar la contraseña nueva',
    done: 'Su contraseña ha cambiado. Inicie sesión.',
    askAgain: 'Pedir un enlace nuevo',
  },
  google: {
    title: 'Iniciar sesión con Google',
    unavailable:
      'El inicio de sesión con Google no está disponible en este exchange. Use su correo y contraseña.',
    continue: 'Continuar con Google',
  },
};

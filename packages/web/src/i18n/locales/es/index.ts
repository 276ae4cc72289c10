import type { en } from '../en';
import type { Messages } from '../types';
import { account } from './account';
import { auth } from './auth';
import { routes } from './routes';
import { shell } from './shell';
import { trade } from './trade';
import { validation } from './validation';
import { wallet } from './wallet';

/** Spanish: every English key, worded in Spanish. */
export const es: Messages<typeof en> = {
  ...shell,
  routes,
  auth,
  account,
  trade,
  validation,
  wallet,
};

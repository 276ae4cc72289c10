import { account } from './account';
import { auth } from './auth';
import { routes } from './routes';
import { shell } from './shell';
import { trade } from './trade';
import { validation } from './validation';
import { wallet } from './wallet';

/** The English texts: the reference every other language must match key for key. */
export const en = { ...shell, routes, auth, account, trade, validation, wallet };

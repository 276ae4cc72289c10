import type { Connection } from './connection.js';
import type { Params } from './params.js';

/** A method's result, with pushes that must follow the reply (snapshots after a subscribe). */
export class FollowedBy {
  constructor(
    readonly result: unknown,
    readonly after: () => void,
  ) {}
}

export interface MethodContext {
  connection: Connection;
  params: Params;
}

export interface Method {
  /** Private methods answer error 6 before `server.auth`. */
  readonly private: boolean;
  handle(context: MethodContext): unknown;
}

/** The reply every subscribe and unsubscribe gives. */
export const success = { status: 'success' } as const;

export function publicMethod(handle: Method['handle']): Method {
  return { private: false, handle };
}

export function privateMethod(handle: Method['handle']): Method {
  return { private: true, handle };
}

/** The signed-in user of a private method's connection. */
export function userOf(context: MethodContext): number {
  const { userId } = context.connection;
  if (userId === null) throw new Error('private method reached without a user');
  return userId;
}

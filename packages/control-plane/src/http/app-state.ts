import type { Caller } from '@ensign/auth';
import type { ManagementOperation } from '@ensign/core';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Logger } from 'pino';

/** What every middleware may rely on in `ctx.state`. */
export interface AppState {
  /** The request's child logger (carries the request id). */
  log: Logger;
  /** Who is calling, once the authentication middleware resolved a credential. */
  caller?: Caller;
  /** The management operation the matched route runs, with the namespace it touches. */
  operation?: ManagementOperation;
  /**
   * Set on the calls a change request makes when tried or applied: a protected namespace takes
   * them. A scheduled apply runs them as the scheduler, past authorization: its approvals were the check.
   */
  changeRequest?: { scheduled: boolean };
}

/** The router every management route is registered on. */
export type AppRouter = Router<AppState>;

/** The context a route handler receives. */
export type AppContext = RouterContext<AppState>;

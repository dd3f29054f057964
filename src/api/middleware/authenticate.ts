import type { Next } from 'koa';
import { authenticate } from '../../domain/auth/tokens.ts';
import type { AppContext } from '../context.ts';

/** Resolves `Authorization: Bearer` into `ctx.state.actor`; routes decide whether one is required. */
export async function authenticateMiddleware(ctx: AppContext, next: Next) {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match?.[1]) {
    const actor = await authenticate(ctx.state.em, match[1]);
    if (actor) ctx.state.actor = actor;
  }
  await next();
}

import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { SamlProvider } from '../../domain/entities/saml-provider.entity.ts';
import { BadRequestError, notFound } from '../../domain/shared/errors.ts';
import { signInWithSaml, type SamlSignIn } from '../../domain/sso/saml-login.ts';
import { SamlServiceProvider } from '../../domain/sso/saml-service-provider.ts';
import type { ApiDeps, AppContext } from '../context.ts';
import { serviceEndpoints } from './sso.presenter.ts';

/** A SAMLResponse is a few kilobytes of base64; an assertion with many attributes stays far below this. */
const FORM_LIMIT = '256kb';
const PROVIDER_ID = /^[\w-]{1,20}$/;

/**
 * The SAML service-provider endpoints advertised in each provider's `service` block,
 * outside /v1 because identity providers, not API clients, call them: `metadata` (for
 * configuring the identity provider), `start` (redirects there with an AuthnRequest)
 * and `acs` (takes the signed answer and signs the person in with an API token).
 */
export function samlLoginRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/sso/saml/:providerId' });
  const serviceProvider = async (ctx: AppContext) => {
    const id = ctx.params.providerId!;
    const provider = PROVIDER_ID.test(id) ? await ctx.state.em.findOne(SamlProvider, { id }, { populate: ['organization', 'defaultTeam'] }) : null;
    if (!provider) throw notFound('SAML provider');
    return { provider, sp: new SamlServiceProvider(ctx.state.em, provider, serviceEndpoints(provider, deps.urls), () => deps.clock.now()) };
  };

  router.get('/metadata', async (ctx: AppContext) => {
    const { sp } = await serviceProvider(ctx);
    ctx.type = 'application/samlmetadata+xml';
    ctx.body = sp.metadata();
  });

  router.get('/start', async (ctx: AppContext) => {
    const { sp } = await serviceProvider(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(await sp.startUrl());
  });

  router.post('/acs', bodyParser({ enableTypes: ['form'], formLimit: FORM_LIMIT }), async (ctx: AppContext) => {
    const { provider, sp } = await serviceProvider(ctx);
    const form = ctx.request.body as Record<string, unknown> | undefined;
    const samlResponse = form?.SAMLResponse;
    if (typeof samlResponse !== 'string' || samlResponse.length === 0) {
      throw new BadRequestError('SAMLResponse: expected the identity provider’s form field (HTTP-POST binding)');
    }
    const signIn = await signInWithSaml(ctx.state.em, provider, await sp.verify(samlResponse));
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('json', 'html') === 'html') {
      // The page only shows text: nothing on it may run or load.
      ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      ctx.type = 'html';
      ctx.body = signedInPage(signIn, provider);
    } else {
      ctx.body = { token: signIn.token, user: { id: signIn.user.id, email: signIn.user.email }, organization: provider.organization.id };
    }
  });
  return router;
}

function signedInPage(signIn: SamlSignIn, provider: SamlProvider): string {
  const org = escapeHtml(provider.organization.getEntity().title);
  return `<!doctype html><meta charset="utf-8"><title>Signed in to ${org}</title>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>Signed in to ${org}</h1>
<p>${escapeHtml(signIn.user.email)}, this is your API token. It is shown once; keep it like a password.</p>
<pre style="padding:1em;background:#eee;overflow-wrap:anywhere;white-space:pre-wrap">${escapeHtml(signIn.token)}</pre>
</body>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

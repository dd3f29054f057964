import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SamlRequest } from '../entities/saml-request.entity.ts';
import type { SamlProvider } from '../entities/saml-provider.entity.ts';

/** How long an identity provider has to answer a request. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;

/**
 * node-saml's request-id cache, kept in PostgreSQL so that any API machine can take the
 * answer to a request another one sent. node-saml reads an id twice while validating
 * and then removes it; "remove" here is a compare-and-set on `consumed_at`, so of two
 * requests presenting the same response only one sees `claimed` and may sign in.
 */
export class SamlRequestStore implements CacheProvider {
  private readonly em: EntityManager;
  private readonly provider: SamlProvider;
  private readonly now: () => Date;
  private readonly won = new Set<string>();

  constructor(em: EntityManager, provider: SamlProvider, now: () => Date) {
    this.em = em;
    this.provider = provider;
    this.now = now;
  }

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    const now = this.now();
    await this.em.nativeDelete(SamlRequest, { createdAt: { $lt: new Date(now.getTime() - SAML_REQUEST_TTL_MS) } });
    // node-saml stores the request's IssueInstant as the value; the row's own clock decides expiry.
    await this.em.insert(SamlRequest, { id: key, provider: this.provider, createdAt: now });
    return { value, createdAt: now.getTime() };
  }

  async getAsync(key: string): Promise<string | null> {
    const row = await this.em.fork().findOne(SamlRequest, {
      id: key,
      provider: this.provider,
      consumedAt: null,
      createdAt: { $gte: new Date(this.now().getTime() - SAML_REQUEST_TTL_MS) },
    });
    return row ? row.createdAt.toISOString() : null;
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (key === null) return null;
    const claimed = await this.em.nativeUpdate(SamlRequest, { id: key, provider: this.provider, consumedAt: null }, { consumedAt: this.now() });
    if (claimed === 0) return null;
    this.won.add(key);
    return key;
  }

  /** Whether this store consumed a request during validation: the response was not a replay. */
  claimedAny(): boolean {
    return this.won.size > 0;
  }
}

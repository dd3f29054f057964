import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { ApiToken } from '../entities/api-token.entity.ts';
import type { IntegrationInstallation } from '../entities/integration-installation.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { newSecret } from '../shared/ids.ts';
import type { Actor } from './actor.ts';

const LAST_USED_RESOLUTION_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Issues a token; the plain value is returned once and never stored. */
export function issueUserToken(em: EntityManager, user: User, label = ''): string {
  const token = `gb_api_${newSecret()}`;
  em.create(ApiToken, { tokenHash: hashToken(token), kind: 'user', user, label });
  return token;
}

export function issueInstallationToken(em: EntityManager, installation: IntegrationInstallation): string {
  const token = `gb_inst_${newSecret()}`;
  em.create(ApiToken, { tokenHash: hashToken(token), kind: 'installation', installation, label: installation.integration });
  return token;
}

/** Resolves a bearer token to its actor, or null when it is unknown. */
export async function authenticate(em: EntityManager, token: string): Promise<Actor | null> {
  if (token.length === 0 || token.length > 200) return null;
  const found = await em.findOne(
    ApiToken,
    { tokenHash: hashToken(token) },
    { populate: ['user', 'installation', 'installation.organization'] },
  );
  if (!found) return null;
  await touch(em, found);
  if (found.kind === 'user' && found.user) return { kind: 'user', user: found.user };
  if (found.kind === 'installation' && found.installation) {
    return { kind: 'installation', installation: found.installation, organizationId: found.installation.organization.id };
  }
  return null;
}

/** Records use at most once a minute per token, so reads do not each cost a write. */
async function touch(em: EntityManager, token: ApiToken) {
  const now = Date.now();
  if (token.lastUsedAt && now - token.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  await em.nativeUpdate(ApiToken, { id: token.id }, { lastUsedAt: new Date(now) });
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { issueInstallationToken } from '../../src/domain/auth/tokens.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { IntegrationInstallation } from '../../src/domain/entities/integration-installation.entity.ts';

/** An installation token of `org`: what integrations push conversations with. */
export async function installationToken(em: EntityManager, org: Organization): Promise<string> {
  const installation = em.create(IntegrationInstallation, { organization: org, integration: 'bench' });
  const token = issueInstallationToken(em, installation);
  await em.flush();
  return token;
}

export type Posting = { base: string; orgId: string; token: string; total: number; batch: number; clients: number; conversation: (i: number) => unknown };

/** Posts conversations 0..total-1 in batches, `clients` requests at a time, as integrations do; answers the milliseconds taken. */
export async function postConversations({ base, orgId, token, total, batch, clients, conversation }: Posting): Promise<number> {
  const batches = Math.ceil(total / batch);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let b = next++; b < batches; b = next++) {
        const body = JSON.stringify(Array.from({ length: Math.min(batch, total - b * batch) }, (_, k) => conversation(b * batch + k)));
        const res = await fetch(`${base}/v1/orgs/${orgId}/conversations`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
        if (res.status !== 204) throw new Error(`batch ${b}: ${res.status} ${await res.text()}`);
      }
    }),
  );
  return performance.now() - started;
}

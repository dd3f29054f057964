import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConversationMetadata, ConversationPart } from '../entities/conversation.entity.ts';
import type { IntegrationInstallation } from '../entities/integration-installation.entity.ts';
import { newId } from '../shared/ids.ts';

export type ConversationInput = {
  id: string;
  subject?: string | undefined;
  parts: ConversationPart[];
  metadata?: ConversationMetadata | undefined;
};

/**
 * The source an installation's conversations are filed under: `integration:<name>:<installation>`
 * (GitBook's pattern `^integration:[^:]+:[^:]+$`, so a `:` in a name becomes `-`).
 */
export function installationSource(installation: IntegrationInstallation): string {
  return `integration:${installation.integration.replace(/:/g, '-')}:${installation.id}`;
}

/**
 * Writes a batch of conversations in one statement: new ones are inserted, known ones
 * (same organization, source and id) updated in place, keeping their id, with
 * `processedAt` cleared so extraction runs again. Within a batch the last conversation
 * with a given id wins. The upsert is one `INSERT … ON CONFLICT DO UPDATE`, so the same id
 * arriving in concurrent requests still makes one row; rows go in id order, so two
 * batches that share ids lock them in the same order and cannot deadlock.
 * Runs in the caller's transaction (`em.execute`). Answers how many rows were written.
 */
export async function ingestConversations(
  em: EntityManager,
  organizationId: string,
  source: string,
  inputs: ConversationInput[],
  now: Date,
): Promise<number> {
  const latest = new Map<string, ConversationInput>();
  for (const input of inputs) {
    latest.delete(input.id);
    latest.set(input.id, input);
  }
  const rows = [...latest.values()]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => ({
      id: newId(),
      external_id: c.id,
      subject: c.subject ?? null,
      parts: c.parts,
      metadata: normalizedMetadata(c.metadata),
    }));
  if (rows.length === 0) return 0;
  const at = now.toISOString();
  await em.execute(
    `insert into conversations (id, organization_id, source, external_id, subject, parts, metadata, created_at, ingested_at, processed_at)
     select r.id, ?, ?, r.external_id, r.subject, r.parts, r.metadata, coalesce((r.metadata->>'createdAt')::timestamptz, ?::timestamptz), ?::timestamptz, null
     from jsonb_to_recordset(?::jsonb) as r(id text, external_id text, subject text, parts jsonb, metadata jsonb)
     order by r.external_id
     on conflict (organization_id, source, external_id) do update set
       subject = excluded.subject,
       parts = excluded.parts,
       metadata = excluded.metadata,
       -- Without a date of its own, a conversation keeps the time it was first ingested.
       created_at = coalesce((excluded.metadata->>'createdAt')::timestamptz, conversations.created_at),
       ingested_at = excluded.ingested_at,
       processed_at = null`,
    [organizationId, source, at, at, JSON.stringify(rows)],
  );
  return rows.length;
}

/** The date in one form (what PostgreSQL and the API answer), the rest as sent. */
function normalizedMetadata(metadata: ConversationMetadata | undefined): ConversationMetadata {
  if (!metadata) return {};
  const { createdAt, ...rest } = metadata;
  return createdAt === undefined ? rest : { ...rest, createdAt: new Date(createdAt).toISOString() };
}

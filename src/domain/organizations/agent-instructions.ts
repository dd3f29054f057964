import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentInstructions, type RichTextDocument } from '../entities/agent-instructions.entity.ts';
import type { Organization } from '../entities/organization.entity.ts';
import type { User } from '../entities/user.entity.ts';
import { NotFoundError } from '../shared/errors.ts';

export async function getAgentInstructions(em: EntityManager, organization: Organization) {
  const found = await em.findOne(AgentInstructions, { organization });
  if (!found) throw new NotFoundError('No agent instructions have been set for this organization');
  return found;
}

/** Stores the document, replacing any earlier one (an upsert, so concurrent PUTs cannot collide). */
export async function setAgentInstructions(
  em: EntityManager,
  organization: Organization,
  instructions: RichTextDocument,
  by: User,
) {
  return em.upsert(AgentInstructions, { organization, instructions, updatedBy: by.id, updatedAt: new Date() });
}

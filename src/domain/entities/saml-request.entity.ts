import { defineEntity, p } from '@mikro-orm/core';
import { SamlProvider } from './saml-provider.entity.ts';

/**
 * An AuthnRequest Vellum sent to an identity provider. The answer must name it
 * (InResponseTo), and each may be answered once: a captured response cannot be
 * replayed, and no login can start at the identity provider unasked.
 */
export const SamlRequestSchema = defineEntity({
  name: 'SamlRequest',
  tableName: 'saml_requests',
  properties: {
    id: p.string().length(128).primary(),
    provider: () => p.manyToOne(SamlProvider).ref().deleteRule('cascade'),
    createdAt: p.datetime(),
    consumedAt: p.datetime().nullable(),
  },
  // Expired requests are deleted by age.
  indexes: [{ properties: ['createdAt'] }],
});

export class SamlRequest extends SamlRequestSchema.class {}
SamlRequestSchema.setClass(SamlRequest);

import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SamlProvider } from '../entities/saml-provider.entity.ts';
import { UnauthorizedError } from '../shared/errors.ts';
import { SAML_REQUEST_TTL_MS, SamlRequestStore } from './saml-request-store.ts';

/** Where the identity provider reaches Vellum for one provider (derived from PUBLIC_URL). */
export type SamlServiceEndpoints = { acsURL: string; startURL: string; entityID: string };

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * Vellum as a SAML service provider for one organization's identity provider, through
 * node-saml (signature checks, audience, issuer, validity window, InResponseTo).
 * Logins start at Vellum only (`validateInResponseTo: always`): an unsolicited
 * response could be replayed by whoever captured it.
 */
export class SamlServiceProvider {
  private readonly saml: SAML;
  private readonly requests: SamlRequestStore;
  private readonly idpEntityId: string;

  constructor(em: EntityManager, provider: SamlProvider, endpoints: SamlServiceEndpoints, now: () => Date) {
    this.requests = new SamlRequestStore(em, provider, now);
    this.idpEntityId = provider.entityID;
    this.saml = new SAML({
      idpCert: provider.certificate,
      entryPoint: provider.ssoURL,
      issuer: endpoints.entityID,
      audience: endpoints.entityID,
      callbackUrl: endpoints.acsURL,
      identifierFormat: EMAIL_FORMAT,
      // Identity providers sign the assertion, the response, or both: the assertion must be.
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      // Leave the authentication method to the identity provider (MFA, passkeys).
      disableRequestedAuthnContext: true,
      acceptedClockSkewMs: 60_000,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
      cacheProvider: this.requests,
    });
  }

  /** The identity provider's URL carrying a fresh AuthnRequest (HTTP-Redirect binding). */
  startUrl(relayState = ''): Promise<string> {
    return this.saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  metadata(): string {
    return this.saml.generateServiceProviderMetadata(null, null);
  }

  /** The signed-in subject of a posted SAMLResponse; UnauthorizedError for anything not valid, or used before. */
  async verify(samlResponse: string): Promise<Profile> {
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (err) {
      throw new UnauthorizedError(`The SAML response was refused: ${(err as Error).message}`, { cause: err });
    }
    if (!profile) throw new UnauthorizedError('The SAML response signs no one in');
    // node-saml compares `idpIssuer` on logout messages only; the signed assertion's issuer is checked here.
    if (profile.issuer !== this.idpEntityId) throw new UnauthorizedError('The SAML assertion comes from another identity provider');
    if (!this.requests.claimedAny()) throw new UnauthorizedError('This SAML response was already used');
    return profile;
  }
}

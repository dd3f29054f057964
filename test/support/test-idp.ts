import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/** A key and certificate only the test identity provider holds (fixtures; 100-year validity). */
export const IDP_KEY = readFileSync(new URL('../fixtures/idp-signing-key.pem', import.meta.url), 'utf8');
export const IDP_CERT = readFileSync(new URL('../fixtures/idp-signing-cert.pem', import.meta.url), 'utf8');
export const IDP_ENTITY_ID = 'https://idp.example.test/metadata';

/** Reads the AuthnRequest carried by a redirect to the identity provider (HTTP-Redirect binding). */
export function authnRequestOf(location: string): { id: string; xml: string } {
  const encoded = new URL(location).searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\bID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error('AuthnRequest without an ID');
  return { id, xml };
}

export type AssertionInput = {
  inResponseTo: string;
  acsURL: string;
  audience: string;
  email: string;
  issuer?: string;
  /** Sign with another key than the one the provider trusts. */
  signingKey?: string;
  now?: Date;
};

/** A SAML Response as an identity provider posts it: assertion signed (RSA-SHA256, exclusive c14n), base64. */
export function signedResponse(input: AssertionInput): string {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const later = new Date(now.getTime() + 5 * 60_000).toISOString();
  const issuer = input.issuer ?? IDP_ENTITY_ID;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_resp${Math.random().toString(16).slice(2)}" Version="2.0" IssueInstant="${at}" Destination="${input.acsURL}" InResponseTo="${input.inResponseTo}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_assert${Math.random().toString(16).slice(2)}" Version="2.0" IssueInstant="${at}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${input.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${input.inResponseTo}" NotOnOrAfter="${later}" Recipient="${input.acsURL}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${at}" NotOnOrAfter="${later}"><saml:AudienceRestriction><saml:Audience>${input.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${at}" SessionIndex="_session1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `</saml:Assertion></samlp:Response>`;
  const sig = new SignedXml({
    privateKey: input.signingKey ?? IDP_KEY,
    publicCert: IDP_CERT,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const assertion = "//*[local-name(.)='Assertion']";
  sig.addReference({
    xpath: assertion,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.computeSignature(xml, { location: { reference: `${assertion}/*[local-name(.)='Issuer']`, action: 'after' } });
  return Buffer.from(sig.getSignedXml()).toString('base64');
}

/** A private key the service provider has never heard of. */
export function strangerKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

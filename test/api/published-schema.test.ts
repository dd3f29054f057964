import { describe, expect, it } from 'vitest';
import { expectPublishedShape, publishedValidator } from '../support/published-schema.ts';

// The checker every content test relies on: it must refuse what the published document refuses.
const layout = { width: 'default', cover: false, coverSize: 'hero', title: true, description: true, tableOfContents: true, outline: true, pagination: true, metadata: true };
const page = { id: 'p1', title: 'Intro', kind: 'sheet', type: 'document', urls: { app: 'https://app.test/s/x/intro' }, slug: 'intro', path: 'intro', pages: [], layout };
const ok = (body: unknown) => ({ status: 200, body });

describe('checking a response against the published GitBook document', () => {
  it('accepts a page, with or without its body (the document’s "Empty" member is TypeScript’s `object`)', () => {
    expectPublishedShape(ok(page), 'GET', '/spaces/{spaceId}/content/page/{pageId}');
    expectPublishedShape(ok({ ...page, markdown: '# Intro' }), 'GET', '/spaces/{spaceId}/content/page/{pageId}');
  });

  it('refuses a missing required key and reports only the variant the discriminator chose', () => {
    const validate = publishedValidator('GET', '/spaces/{spaceId}/content/page/{pageId}', 200)!;
    expect(validate({ ...page, layout: undefined })).toBe(false);
    expect(validate.errors!.map((e) => e.message)).toContain("must have required property 'layout'");
    expect(validate({ ...page, type: 'spreadsheet' })).toBe(false);
    expect(validate.errors!.map((e) => [e.instancePath, e.keyword])).toEqual([['/type', 'enum']]);
    expect(() => expectPublishedShape(ok({ ...page, layout: undefined }), 'GET', '/spaces/{spaceId}/content/page/{pageId}')).toThrow(/against the published GitBook API/);
  });

  it('refuses a revision id where a location’s versionContext needs the Revision object', () => {
    const validate = publishedValidator('GET', '/spaces/{spaceId}/content/page/{pageId}/backlinks', 200)!;
    expect(validate({ count: 1, items: [{ kind: 'url', url: 'https://x.test' }] })).toBe(true);
    validate({ count: 1, items: [{ kind: 'page', organization: {}, space: {}, page, versionContext: { type: 'revision', revision: 'r1' } }] });
    expect(validate.errors!.map((e) => `${e.instancePath} ${e.message}`)).toContain('/items/0/versionContext/revision must be object');
  });

  it('reads `nullable` as allowing null', () => {
    const validate = publishedValidator('GET', '/collections/{collectionId}', 200)!;
    const collection = {
      object: 'collection',
      id: 'c1',
      title: 'Guides',
      organization: 'o1',
      defaultLevel: null,
      urls: { location: 'https://api.test/v1/collections/c1', app: 'https://app.test/c/c1' },
      permissions: { view: true, admin: false, viewInviteLinks: false, create: false },
    };
    expect(validate(collection), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...collection, defaultLevel: 'owner' })).toBe(false);
  });

  it('knows which statuses have no body, and refuses operations the document lacks', () => {
    expect(publishedValidator('POST', '/spaces/{spaceId}/permissions', 204)).toBeNull();
    expect(() => publishedValidator('GET', '/org/{organizationId}/imports/{importRunId}', 200)).toThrow(/has no operation/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ContentRoles } from '../../src/domain/content/content-roles.ts';
import { collectionRules, spaceRules } from '../../src/domain/content/content.policy.ts';
import { listReadableCollections, listReadableSpaces, listSpacesWithRole, readableSpaceTitles } from '../../src/domain/content/listing.ts';
import { collectionView, spaceView } from '../../src/domain/content/load-content.ts';
import { Collection } from '../../src/domain/entities/collection.entity.ts';
import { ContentPermission } from '../../src/domain/entities/content-permission.entity.ts';
import type { Organization } from '../../src/domain/entities/organization.entity.ts';
import { Space } from '../../src/domain/entities/space.entity.ts';
import { loadOrgView } from '../../src/domain/organizations/org-view.ts';
import type { DefaultLevel } from '../../src/domain/shared/roles.ts';
import type { Page, PageRequest } from '../../src/domain/shared/paging.ts';
import { buildCast, buildCollection, buildSpace, buildTeam, type Caller } from '../support/factories.ts';
import { startTestApi, type TestApi } from '../support/harness.ts';

const LEVELS: DefaultLevel[] = ['inherit', null, 'read', 'admin', 'inherit', 'edit', null, 'comment'];
const SPACES = 300;

let api: TestApi;
let em: EntityManager;
let org: Organization;
let callers: Record<string, Caller>;

beforeAll(async () => {
  api = await startTestApi();
  em = api.em();
  const cast = await buildCast(em, ['read', 'edit', 'guest'] as const);
  org = cast.org;
  callers = { admin: cast.admin, reader: cast.members.read, editor: cast.members.edit, guest: cast.members.guest };

  // A tree of collections with every kind of default level.
  const top = async (level: DefaultLevel, parent: Collection | null = null) => {
    const c = await buildCollection(em, org, cast.admin, { parent });
    c.defaultLevel = level;
    return c;
  };
  const c0 = await top('inherit');
  const c1 = await top(null);
  const c2 = await top('inherit', c1);
  const c3 = await top('read', c1);
  const c4 = await top('admin');
  const c5 = await top(null, c4);
  const c6 = await top('edit', c2);
  const c7 = await top('comment');
  const parents = [null, c0, c1, c2, c3, c4, c5, c6, c7];
  await em.flush();

  const spaces: Space[] = [];
  for (let i = 0; i < SPACES; i++) {
    const space = await buildSpace(em, org, cast.admin, { parent: parents[(i * 7) % parents.length]! });
    space.defaultLevel = LEVELS[(i * 5) % LEVELS.length]!;
    if (i % 29 === 0) space.deletedAt = new Date();
    spaces.push(space);
  }
  // Grants: to the guest directly, and through a team, on spaces and collections.
  const team = await buildTeam(em, org, [{ user: cast.members.guest.user }, { user: cast.members.read.user }]);
  const grant = (target: { space: Space } | { collection: Collection }, to: { user: Caller['user'] } | { team: typeof team }, role: 'read' | 'edit' | 'admin') =>
    em.create(ContentPermission, { organization: org, ...target, ...to, role });
  for (let i = 3; i < SPACES; i += 31) grant({ space: spaces[i]! }, { user: cast.members.guest.user }, 'read');
  for (let i = 11; i < SPACES; i += 47) grant({ space: spaces[i]! }, { team }, 'edit');
  grant({ collection: c5 }, { user: cast.members.guest.user }, 'read');
  grant({ collection: c1 }, { team }, 'admin');
  await em.flush();
}, 120_000);
afterAll(() => api.close());

async function accessOf(who: string): Promise<ContentRoles> {
  return ContentRoles.load(em, await loadOrgView(em, { kind: 'user', user: callers[who]!.user }, org.id));
}

/** Every item of a paged list, page after page. */
async function all<T extends { id: string }>(list: (page: PageRequest) => Promise<Page<T>>): Promise<string[]> {
  const ids: string[] = [];
  let page: string | undefined;
  do {
    const result = await list({ limit: 37, page, list: 'test' });
    ids.push(...result.items.map((i) => i.id));
    page = result.next?.page;
  } while (page);
  return ids;
}

const sorted = (ids: string[]) => [...ids].sort();

describe('readable listings filtered in SQL', () => {
  const who = ['admin', 'reader', 'editor', 'guest'];

  it('list exactly the spaces the policy lets each caller read', async () => {
    const everySpace = await em.fork().find(Space, { organization: org, deletedAt: null });
    expect(everySpace.length).toBeGreaterThan(250);
    for (const w of who) {
      const access = await accessOf(w);
      const expected = everySpace.filter((s) => spaceRules.view(spaceView(access, s))).map((s) => s.id);
      const listed = await all((page) => listReadableSpaces(em.fork(), access, undefined, page));
      expect(listed.length, w).toBe(new Set(listed).size);
      expect(sorted(listed), w).toEqual(sorted(expected));
      expect(sorted([...(await readableSpaceTitles(em.fork(), access)).keys()]), w).toEqual(sorted(expected));
    }
    // The mix is real: some callers see some spaces and not others.
    const guest = await accessOf('guest');
    const seen = everySpace.filter((s) => spaceRules.view(spaceView(guest, s))).length;
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(everySpace.length);
  });

  it('within one collection too, and for collections', async () => {
    const collections = await em.fork().find(Collection, { organization: org });
    for (const w of who) {
      const access = await accessOf(w);
      for (const parent of collections) {
        const inside = await em.fork().find(Space, { organization: org, deletedAt: null, parent });
        const expected = inside.filter((s) => spaceRules.view(spaceView(access, s))).map((s) => s.id);
        expect(sorted(await all((page) => listReadableSpaces(em.fork(), access, parent.id, page))), `${w} in ${parent.id}`).toEqual(sorted(expected));
      }
      const expected = collections.filter((c) => collectionRules.view(collectionView(access, c))).map((c) => c.id);
      expect(sorted(await all((page) => listReadableCollections(em.fork(), access, false, page))), w).toEqual(sorted(expected));
    }
  });

  it('a member’s spaces are those both they and the viewer can read, with the member’s role', async () => {
    const everySpace = await em.fork().find(Space, { organization: org, deletedAt: null });
    const guest = await accessOf('guest');
    const reader = await accessOf('reader');
    const both = everySpace.filter((s) => spaceRules.view(spaceView(guest, s)) && spaceRules.view(spaceView(reader, s)));
    const listed: Array<{ id: string; role: unknown }> = [];
    let page: string | undefined;
    do {
      const result = await listSpacesWithRole(em.fork(), guest, reader, 'asc', { limit: 41, page, list: 'test' });
      listed.push(...result.items.map((i) => ({ id: i.space.id, role: i.role })));
      page = result.next?.page;
    } while (page);
    expect(sorted(listed.map((l) => l.id))).toEqual(sorted(both.map((s) => s.id)));
    for (const l of listed) expect(l.role).toBe(guest.roleForSpace(everySpace.find((s) => s.id === l.id)!));
  });
});

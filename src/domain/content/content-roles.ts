import type { EntityManager } from '@mikro-orm/postgresql';
import { Collection } from '../entities/collection.entity.ts';
import { ContentPermission } from '../entities/content-permission.entity.ts';
import type { Space } from '../entities/space.entity.ts';
import { TeamMembership } from '../entities/team-membership.entity.ts';
import type { OrgView } from '../organizations/org-view.ts';
import { maxRole, minRole, type DefaultLevel, type RoleOrGuest } from '../shared/roles.ts';

type Container = { id: string; defaultLevel?: DefaultLevel | undefined; parent?: { id: string } | null | undefined };

/**
 * What the caller may do on each space and collection of one organization. Built once
 * per request (two queries: the organization's collections and the caller's grants), then
 * asked per item:
 * - organization admins are admins everywhere;
 * - otherwise the role is the stronger of the inherited default level (walking `inherit`
 *   up the collections, capped at the member's organization role; guests get none) and any
 *   explicit grant to the caller or their teams on the item or a collection above it.
 * Integration installations read everything in their organization.
 */
export class ContentRoles {
  readonly org: OrgView;
  private readonly collections: Map<string, Container>;
  private readonly grants: Map<string, RoleOrGuest>;

  private constructor(org: OrgView, collections: Map<string, Container>, grants: Map<string, RoleOrGuest>) {
    this.org = org;
    this.collections = collections;
    this.grants = grants;
  }

  static async load(em: EntityManager, org: OrgView): Promise<ContentRoles> {
    const collections = await em.find(
      Collection,
      { organization: org.organization },
      { fields: ['id', 'defaultLevel', 'parent'] },
    );
    const grants = new Map<string, RoleOrGuest>();
    const member = org.member;
    if (member && member.role !== 'admin') {
      const teams = await em.find(TeamMembership, { member }, { fields: ['team'] });
      const rows = await em.find(ContentPermission, {
        organization: org.organization,
        $or: [{ user: member.user }, { team: { $in: teams.map((t) => t.team.id) } }],
      });
      for (const g of rows) {
        const key = g.space ? `s:${g.space.id}` : `c:${g.collection!.id}`;
        grants.set(key, maxRole(grants.get(key) ?? null, g.role));
      }
    }
    return new ContentRoles(org, new Map(collections.map((c) => [c.id, c])), grants);
  }

  /** Ids of the organization's collections, as loaded. */
  collectionIds(): string[] {
    return [...this.collections.keys()];
  }

  /** Ids of the spaces (or collections) the caller holds a grant on, directly or through a team. */
  grantedIds(kind: 'space' | 'collection'): string[] {
    const prefix = kind === 'space' ? 's:' : 'c:';
    return [...this.grants.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(2));
  }

  roleForSpace(space: Pick<Space, 'id' | 'defaultLevel' | 'parent'>): RoleOrGuest {
    return this.resolve(space, `s:${space.id}`);
  }

  roleForCollection(collection: Container): RoleOrGuest {
    return this.resolve(collection, `c:${collection.id}`);
  }

  private resolve(item: Container, key: string): RoleOrGuest {
    const actor = this.org.actor;
    if (actor.kind === 'installation') return 'read';
    const orgRole = this.org.member?.role ?? null;
    if (orgRole === 'admin') return 'admin';
    let explicit = this.grants.get(key) ?? null;
    let level: DefaultLevel | undefined = item.defaultLevel;
    let parentId = item.parent?.id ?? null;
    const seen = new Set<string>();
    while (parentId && !seen.has(parentId)) {
      seen.add(parentId);
      const parent = this.collections.get(parentId);
      if (!parent) break;
      explicit = maxRole(explicit, this.grants.get(`c:${parentId}`) ?? null);
      if (level === 'inherit' || level === undefined) level = parent.defaultLevel;
      parentId = parent.parent?.id ?? null;
    }
    // The default level opens an item to members up to their organization role, never
    // above it (README: "up to the member's organization role"); explicit grants are
    // given to the caller by an admin and stand on their own.
    const inherited: RoleOrGuest = orgRole === null ? null : level === 'inherit' || level === undefined ? orgRole : minRole(level, orgRole);
    return maxRole(inherited, explicit);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { rankedOffset, rankedPage, type PageRequest } from '../shared/paging.ts';

export type SectionHit = { pageId: string; anchor: string | null; title: string; pagePath: string; snippet: string };
export type PageHit = { spaceId: string; pageId: string; title: string; path: string; sections: SectionHit[] };

const SECTIONS_PER_PAGE = 5;
const PAGES_PER_SPACE = 5;
const MAX_WORDS = 12;

/**
 * The two queries a search runs: full-text (English stemming, with every word also as a
 * prefix so partial words match) and trigram similarity on section titles (typos, word
 * fragments). Words are reduced to letters and digits first, so no input reaches the
 * tsquery parser as syntax.
 */
function terms(query: string) {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
  return { text: query.slice(0, 512), prefix: words.map((w) => `${w}:*`).join(' & ') };
}

const FULL_TEXT = `(s.tsv @@ websearch_to_tsquery('english', :text) or (:prefix <> '' and s.tsv @@ to_tsquery('english', :prefix)))`;
/** Full text, or a title similar to the query: the wider net, cast only when full text finds too little. */
const MATCH = `(${FULL_TEXT} or s.title % :text)`;
const RANK = `(ts_rank(s.tsv, websearch_to_tsquery('english', :text)) + case when :prefix <> '' then 0.5 * ts_rank(s.tsv, to_tsquery('english', :prefix)) else 0 end + similarity(s.title, :text))`;

/**
 * Matching sections with their rank, at most CANDIDATES of them. A very common word can
 * match hundreds of thousands of sections; ranking them all is what made searches slow,
 * so the ranked set is bounded (results then come from the first CANDIDATES matches,
 * and counts are capped accordingly).
 */
const CANDIDATES = 10_000;
const hits = (where: string, match: string) => `hits as (
  select s.space_id, s.page_id, ${RANK} as score
  from (select s.space_id, s.page_id, s.title, s.tsv from search_sections s where ${where} and ${match} limit ${CANDIDATES}) s
)`;

/**
 * Title trigram similarity scans far more of the index than full text; it is only worth
 * it for typos and fragments, so it runs only when full text alone found too little.
 */
async function widening<T extends { total: string }>(limit: number, offset: number, query: (match: string) => Promise<T[]>): Promise<T[]> {
  const strict = await query(FULL_TEXT);
  const total = Number(strict[0]?.total ?? 0);
  return offset === 0 && total < limit ? query(MATCH) : strict;
}

/** Pages of one space whose sections match, best first, each with its best sections. Ranked: paged by offset. */
export async function searchSpace(em: EntityManager, spaceId: string, query: string, page: PageRequest) {
  const t = terms(query);
  const offset = rankedOffset(page);
  const ranked = await widening(page.limit, offset, (match) =>
    run<{ page_id: string; total: string }>(
      em,
      `with ${hits('s.space_id = :space', match)},
       pages as (select page_id, max(score) as score from hits group by page_id)
       select page_id, count(*) over () as total from pages order by score desc, page_id limit :limit offset :offset`,
      { space: spaceId, ...t, limit: page.limit, offset },
    ),
  );
  const found = await sectionsFor(em, ranked.map((r) => ({ spaceId, pageId: r.page_id })), t);
  const count = Number(ranked[0]?.total ?? (offset > 0 ? await countPages(em, spaceId, t) : 0));
  return rankedPage(found, count, offset, page);
}

/** Spaces (among those given) with matching pages, best first, each with its best pages: one ranking query. */
export async function searchSpaces(em: EntityManager, spaceIds: string[], query: string, page: PageRequest) {
  const offset = rankedOffset(page);
  if (spaceIds.length === 0) return { items: [] as Array<{ spaceId: string; pages: PageHit[] }>, count: 0 };
  const t = terms(query);
  const rows = await widening(page.limit, offset, (match) =>
    run<{ space_id: string; total: string; page_id: string }>(
    em,
    `with ${hits('s.space_id in (:spaces)', match)},
     pages as (select space_id, page_id, max(score) as score from hits group by space_id, page_id),
     ranked_pages as (select space_id, page_id, row_number() over (partition by space_id order by score desc, page_id) as n from pages),
     best as (select space_id, max(score) as score from pages group by space_id),
     chosen as (select space_id, score, count(*) over () as total from best order by score desc, space_id limit :limit offset :offset)
     select c.space_id, c.total, r.page_id from chosen c join ranked_pages r on r.space_id = c.space_id and r.n <= ${PAGES_PER_SPACE}
     order by c.score desc, c.space_id, r.n`,
    { spaces: spaceIds, ...t, limit: page.limit, offset },
    ),
  );
  const order = [...new Set(rows.map((r) => r.space_id))];
  const pages = await sectionsFor(em, rows.map((r) => ({ spaceId: r.space_id, pageId: r.page_id })), t);
  const items = order.map((spaceId) => ({ spaceId, pages: pages.filter((p) => p.spaceId === spaceId) }));
  return rankedPage(items, Number(rows[0]?.total ?? 0), offset, page);
}

async function sectionsFor(em: EntityManager, pages: Array<{ spaceId: string; pageId: string }>, t: ReturnType<typeof terms>): Promise<PageHit[]> {
  if (pages.length === 0) return [];
  type Row = { space_id: string; page_id: string; page_title: string; page_path: string; anchor: string | null; title: string; snippet: string; rank: number };
  const rows = await run<Row>(
    em,
      `select s.space_id, s.page_id, s.page_title, s.page_path, s.anchor, s.title, ${RANK} as rank,
              ts_headline('english', s.body, websearch_to_tsquery('english', :text), 'MaxWords=30, MinWords=10, MaxFragments=1') as snippet
       from search_sections s where s.space_id in (:spaces) and s.page_id in (:pages) and ${MATCH}
       order by rank desc`,
      { spaces: [...new Set(pages.map((p) => p.spaceId))], pages: pages.map((p) => p.pageId), ...t },
  );
  return pages.map(({ spaceId, pageId }) => {
    const mine = rows.filter((r) => r.page_id === pageId && r.space_id === spaceId);
    const first = mine[0];
    return {
      spaceId,
      pageId,
      title: first?.page_title ?? '',
      path: first?.page_path ?? '',
      sections: mine.slice(0, SECTIONS_PER_PAGE).map((r) => ({ pageId, anchor: r.anchor, title: r.title, pagePath: r.page_path, snippet: r.snippet })),
    };
  });
}

async function countPages(em: EntityManager, spaceId: string, t: ReturnType<typeof terms>): Promise<number> {
  const [row] = await run<{ n: number }>(
    em,
    `select count(distinct s.page_id)::int as n from (select s.page_id from search_sections s where s.space_id = :space and ${MATCH} limit ${CANDIDATES}) s`,
    { space: spaceId, ...t },
  );
  return row?.n ?? 0;
}

/** Runs SQL with `:name` placeholders (arrays expand); values never touch the SQL text. */
function run<T>(em: EntityManager, sql: string, params: Record<string, unknown>): Promise<T[]> {
  const values: unknown[] = [];
  const text = sql.replace(/(?<!:):(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`missing SQL parameter ${name}`);
    values.push(params[name]);
    return '?';
  });
  // em.execute runs in the caller's transaction when there is one (getConnection() would not).
  return em.execute<T[]>(text, values);
}

import { readFileSync, readdirSync } from 'node:fs';
import type { Nodes } from 'mdast';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseMarkdown } from '../../src/domain/content/markdown/parse.ts';
import { countWords, rebuild, segmentMarkdown } from '../../src/domain/translations/markdown-segments.ts';
import { restoreTokens } from '../../src/domain/translations/placeholders.ts';
import { pseudoTranslate } from '../../src/domain/translations/pseudo-translate.ts';

const dir = new URL('./fixtures/', import.meta.url);
const pages = readdirSync(dir).filter((f) => f.endsWith('.md')).map((name) => ({ name, source: readFileSync(new URL(name, dir), 'utf8') }));

/** Every span that must come out of a translation byte-identical, by kind, in document order. */
function protectedSpans(markdown: string) {
  const spans: Record<string, string[]> = { code: [], inlineCode: [], linkTarget: [], image: [], html: [], gitbookTag: [], expression: [], frontMatterKey: [] };
  const slice = (n: Nodes) => markdown.slice(n.position!.start.offset, n.position!.end.offset);
  const visit = (n: Nodes) => {
    if (n.type === 'code') spans.code!.push(slice(n));
    if (n.type === 'inlineCode') spans.inlineCode!.push(slice(n));
    if (n.type === 'html') spans.html!.push(slice(n));
    if (n.type === 'image') spans.image!.push(slice(n));
    if (n.type === 'link' || n.type === 'definition') spans.linkTarget!.push(`${n.url} ${n.title ?? ''}`);
    if (n.type === 'yaml') spans.frontMatterKey!.push(...n.value.split('\n').flatMap((l) => /^\s*[\w-]+:/.exec(l) ?? []));
    if ('children' in n) n.children.forEach(visit);
  };
  visit(parseMarkdown(markdown));
  spans.gitbookTag = [...markdown.matchAll(/\{%.*?%\}/g)].map((m) => m[0]);
  spans.expression = [...markdown.matchAll(/\{\{.*?\}\}/g)].map((m) => m[0]);
  return spans;
}

/** Node types in document order, text nodes left out: the document's Markdown structure. */
function structure(node: Nodes): string[] {
  const children = 'children' in node ? (node.children as Nodes[]).flatMap(structure) : [];
  return node.type === 'text' ? [] : [node.type, ...children, `/${node.type}`];
}

describe('segmentMarkdown and rebuild on a GitBook corpus', () => {
  it.each(pages)('$name: pseudo-translated, every protected span is byte-identical and prose changed', ({ source }) => {
    const segmented = segmentMarkdown(source);
    expect(segmented.segments.length).toBeGreaterThan(5);
    const translations = segmented.segments.map((s) => pseudoTranslate(s.text));
    const { markdown, rejected } = rebuild(segmented, translations);

    expect(rejected).toEqual([]);
    const before = protectedSpans(source);
    expect(Object.values(before).flat().length).toBeGreaterThan(10);
    expect(protectedSpans(markdown)).toEqual(before);
    for (const [i, s] of segmented.segments.entries()) {
      const restored = restoreTokens(translations[i]!, s.tokens);
      if (s.kind !== 'front-matter') expect(markdown).toContain(restored);
      expect(restored).not.toBe(restoreTokens(s.text, s.tokens));
    }
    expect(structure(parseMarkdown(markdown))).toEqual(structure(parseMarkdown(source)));
  });

  it.each(pages)('$name: the identity translation rebuilds the exact source', ({ source }) => {
    const segmented = segmentMarkdown(source);
    expect(rebuild(segmented, segmented.segments.map((s) => s.text))).toEqual({ markdown: source, rejected: [] });
  });
});

describe('segmentMarkdown', () => {
  it('keeps markup, targets and GitBook syntax out of the text to translate', () => {
    const texts = segmentMarkdown(pages.find((p) => p.name === 'getting-started.md')!.source).segments.map((s) => s.text);
    expect(texts).toContain('Getting started with ⟦1⟧');
    expect(texts).toContain('Welcome to ⟦b1⟧⟦2⟧⟦/b1⟧! This guide walks you through the ⟦b3⟧installation⟦/b3⟧, the first login and the creation of your first ⟦b4⟧space⟦/b4⟧.');
    expect(texts).toContain('⟦b1⟧Prerequisites:⟦/b1⟧ you need Node.js ⟦2⟧ and a running ⟦b3⟧PostgreSQL⟦/b3⟧ server.');
    expect(texts).toContain('Install ⟦1⟧ on your machine and publish your first documentation space in five minutes.');
    const all = texts.join('\n');
    for (const hidden of ['{%', '%}', 'brew install', 'https://', '.png', '<figure>', 'spaces.md', 'rocket', 'description', 'visible']) expect(all).not.toContain(hidden);
  });

  it('keeps GitBook math ($$…$$, as a block or inline) byte-identical', () => {
    const source = '# Energy\n\nThe formula:\n\n$$\nE = mc^2\n$$\n\nInline math $$a+b$$ here.\n';
    const segmented = segmentMarkdown(source);
    expect(segmented.segments.map((s) => s.text)).toEqual(['Energy', 'The formula:', 'Inline math ⟦1⟧ here.']);
    const { markdown, rejected } = rebuild(segmented, segmented.segments.map((s) => pseudoTranslate(s.text)));
    expect(rejected).toEqual([]);
    expect(markdown).toContain('\n\n$$\nE = mc^2\n$$\n\n');
    expect(markdown).toContain(' $$a+b$$ ');
  });

  it('wraps nested markup around the same words in one pair of placeholders', () => {
    const segmented = segmentMarkdown('Per ***organization*** and **[the docs](docs.md)**.\n');
    expect(segmented.segments[0]!.text).toBe('Per ⟦b1⟧organization⟦/b1⟧ and ⟦b2⟧the docs⟦/b2⟧.');
    expect(rebuild(segmented, ['Pro ⟦b1⟧Organisation⟦/b1⟧ und ⟦b2⟧die Doku⟦/b2⟧.']).markdown).toBe('Pro ***Organisation*** und **[die Doku](docs.md)**.\n');
  });

  it('segments front-matter values, not keys, and re-encodes a translated value as YAML', () => {
    const source = '---\ntitle: Configuration\ndescription: \'It\'\'s easy\'\nicon: gear\n---\n\nBody text.\n';
    const segmented = segmentMarkdown(source);
    expect(segmented.segments.map((s) => [s.kind, s.text])).toEqual([['front-matter', 'Configuration'], ['front-matter', "It's easy"], ['paragraph', 'Body text.']]);
    const { markdown } = rebuild(segmented, ['Konfiguration: Referenz', "C'est facile", 'Corps.']);
    expect(markdown).toBe('---\ntitle: "Konfiguration: Referenz"\ndescription: C\'est facile\nicon: gear\n---\n\nCorps.\n');
  });

  it('re-encodes translated block scalars and values with expressions so YAML reads the translation back', () => {
    const source = '---\ndescription: >-\n  Install {{ space.vars.product }} on\n  your machine.\nnotes: |\n  First line\n  second line\nlayout:\n  width: wide\n---\n# Hi\n';
    const segmented = segmentMarkdown(source);
    expect(segmented.segments.map((s) => s.text)).toEqual(['Install ⟦1⟧ on your machine.', 'First line\nsecond line', 'Hi']);
    const { markdown, rejected } = rebuild(segmented, ['Installez ⟦1⟧ : "vite".', 'Première\nseconde', 'Salut']);
    expect(rejected).toEqual([]);
    const yaml = /^---\n([\s\S]*?)\n---\n/.exec(markdown)![1]!;
    expect(parse(yaml)).toEqual({ description: 'Installez {{ space.vars.product }} : "vite".', notes: 'Première\nseconde', layout: { width: 'wide' } });
    expect(markdown.slice(markdown.indexOf('layout:'))).toBe('layout:\n  width: wide\n---\n# Salut\n');
  });

  it('counts the words of the text to translate, placeholders excluded', () => {
    expect(countWords(segmentMarkdown('# Hello {{ space.vars.x }}\n\nSee `the code` and [the docs](https://x.io).\n\n```js\nconst notCounted = 1;\n```\n'))).toBe(5);
  });
});

describe('rebuild validation', () => {
  const source = 'Read **the guide** and run `npm test` before [opening a PR](https://x.io/pr "PR").\n\n# Title {{ space.vars.x }} now\n';
  const segmented = segmentMarkdown(source);
  const [paragraph, heading] = segmented.segments.map((s) => s.text);

  it('uses a translation that keeps every placeholder, in any order', () => {
    expect(paragraph).toBe('Read ⟦b1⟧the guide⟦/b1⟧ and run ⟦2⟧ before ⟦b3⟧opening a PR⟦/b3⟧.');
    const { markdown, rejected } = rebuild(segmented, ['Vor dem ⟦b3⟧Öffnen eines PR⟦/b3⟧ ⟦b1⟧die Anleitung⟦/b1⟧ lesen und ⟦2⟧ ausführen.', 'Jetzt ⟦1⟧ Titel']);
    expect(rejected).toEqual([]);
    expect(markdown).toBe('Vor dem [Öffnen eines PR](https://x.io/pr "PR") **die Anleitung** lesen und `npm test` ausführen.\n\n# Jetzt {{ space.vars.x }} Titel\n');
  });

  it.each([
    ['drops a placeholder', 'Lies ⟦b1⟧die Anleitung⟦/b1⟧ vor ⟦b3⟧dem PR⟦/b3⟧.', 'placeholder ⟦2⟧ missing'],
    ['duplicates a placeholder', 'Lies ⟦b1⟧die Anleitung⟦/b1⟧, ⟦2⟧ und ⟦2⟧ vor ⟦b3⟧dem PR⟦/b3⟧.', 'placeholder ⟦2⟧ duplicated'],
    ['crosses pairs', 'Lies ⟦b1⟧die Anleitung⟦/b3⟧ und ⟦2⟧ vor ⟦b3⟧dem PR⟦/b1⟧.', 'placeholder ⟦/b3⟧ closes out of order'],
    ['moves a placeholder into a pair', 'Lies ⟦b1⟧die Anleitung ⟦2⟧⟦/b1⟧ vor ⟦b3⟧dem PR⟦/b3⟧.', 'placeholder ⟦2⟧ moved into another pair'],
    ['invents a placeholder', 'Lies ⟦b1⟧die Anleitung⟦/b1⟧, ⟦2⟧, ⟦9⟧ vor ⟦b3⟧dem PR⟦/b3⟧.', 'unknown placeholder ⟦9⟧'],
    ['adds Markdown of its own', 'Lies ⟦b1⟧die Anleitung⟦/b1⟧ *jetzt*, ⟦2⟧ vor ⟦b3⟧dem PR⟦/b3⟧.', 'Markdown structure changed'],
    ['splits the paragraph', 'Lies ⟦b1⟧die Anleitung⟦/b1⟧.\n\n⟦2⟧ vor ⟦b3⟧dem PR⟦/b3⟧.', 'Markdown structure changed'],
  ])('rejects a translation that %s and keeps the source text', (_what, translation, reason) => {
    const { markdown, rejected } = rebuild(segmented, [translation, heading!]);
    expect(rejected).toEqual([{ index: 0, reason }]);
    expect(markdown).toBe(source);
  });

  it('rejects a translation that runs into a bare URL and would change its target', () => {
    const bare = segmentMarkdown('Visit https://x.io/help today.\n');
    expect(bare.segments[0]!.text).toBe('Visit ⟦1⟧ today.');
    expect(rebuild(bare, ['Besuche ⟦1⟧/heute.'])).toEqual({ markdown: 'Visit https://x.io/help today.\n', rejected: [{ index: 0, reason: 'Markdown structure changed' }] });
  });

  it('rejects a table cell translation with a bare pipe, which would add a column', () => {
    const table = segmentMarkdown('| Key | Meaning |\n| --- | --- |\n| `a` | Either this or that |\n');
    expect(table.segments.map((s) => s.text)).toEqual(['Key', 'Meaning', 'Either this or that']);
    const { markdown, rejected } = rebuild(table, ['Clé', 'Sens', 'Ceci | cela']);
    expect(rejected).toEqual([{ index: 2, reason: 'unescaped | in a table cell' }]);
    expect(markdown).toBe('| Clé | Sens |\n| --- | --- |\n| `a` | Either this or that |\n');
    expect(rebuild(table, ['Clé', 'Sens', 'Ceci \\| cela']).rejected).toEqual([]);
  });

  it('rejects a heading translated onto two lines', () => {
    const { markdown, rejected } = rebuild(segmented, [paragraph!, 'Titel\nzwei ⟦1⟧']);
    expect(heading).toBe('Title ⟦1⟧ now');
    expect(rejected).toEqual([{ index: 1, reason: 'line break in a one-line block' }]);
    expect(markdown).toBe(source);
  });
});

describe('pseudoTranslate', () => {
  it('accents letters, brackets the text, grows it by about 30 % and leaves placeholders alone', () => {
    const text = 'Read ⟦b1⟧the installation guide⟦/b1⟧ and run ⟦2⟧ before you open a pull request.';
    const pseudo = pseudoTranslate(text);
    expect(pseudo).toBe(pseudoTranslate(text));
    expect(pseudo).toMatch(/^\[Ŕééááď ⟦b1⟧ťĥéé .*⟦\/b1⟧ .* ⟦2⟧ .*\.\]$/);
    expect(pseudo).not.toMatch(/[a-z]{2}/i);
    const growth = pseudo.length / text.length - 1;
    expect(growth).toBeGreaterThan(0.2);
    expect(growth).toBeLessThan(0.45);
  });
});

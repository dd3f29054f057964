import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/domain/content/markdown/document.ts';
import { documentToMarkdown } from '../../src/domain/content/markdown/to-markdown.ts';

const leaf = (text: string, marks: string[] = []) => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) });
const paragraph = (...leaves: unknown[]) => ({ object: 'block', type: 'paragraph', key: 'k', isVoid: false, data: {}, nodes: [{ object: 'text', leaves }] });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });

describe('documentToMarkdown', () => {
  it('gives back the Markdown of what markdownToDocument made', () => {
    const markdown = [
      '# Title',
      'Some **bold**, _italic_, `code`, ~~struck~~ and [a link](https://x.test/a).',
      '- one\n- two',
      '1. first\n2. second',
      '- [x] done\n- [ ] todo',
      '> quoted',
      '```ts\nconst a = 1;\n  indented\n```',
      '---',
      '![alt](https://img.test/a.png)',
    ].join('\n\n');
    expect(documentToMarkdown(markdownToDocument(markdown))).toBe(markdown);
  });

  it('escapes text, so nothing in a leaf becomes markup or HTML', () => {
    const md = documentToMarkdown(doc(paragraph(leaf('<script>alert(1)</script> *not bold* # not a heading'))));
    expect(md).toBe('\\<script>alert(1)\\</script> \\*not bold\\* # not a heading');
    expect(markdownToDocument(md).nodes[0]).toMatchObject({ type: 'paragraph', nodes: [{ leaves: [{ text: '<script>alert(1)</script> *not bold* # not a heading', marks: [] }] }] });
  });

  it('keeps web, mail and relative links and drops other schemes to their text', () => {
    const link = (url: string) => ({ object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url } }, nodes: [{ object: 'text', leaves: [leaf('here')] }] });
    const block = (url: string) => doc({ object: 'block', type: 'paragraph', nodes: [link(url)] });
    expect(documentToMarkdown(block('https://x.test'))).toBe('[here](https://x.test)');
    expect(documentToMarkdown(block('mailto:a@x.test'))).toBe('[here](mailto:a@x.test)');
    expect(documentToMarkdown(block('../page'))).toBe('[here](../page)');
    expect(documentToMarkdown(block('javascript:alert(1)'))).toBe('here');
    expect(documentToMarkdown(block('data:text/html,<b>x</b>'))).toBe('here');
  });

  it('reads unknown blocks for their content and any other input as empty, never throwing', () => {
    const hint = { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [paragraph(leaf('inside', ['bold']))] };
    expect(documentToMarkdown(doc(hint, { object: 'block', type: 'mystery', nodes: [{ object: 'text', leaves: [leaf('plain')] }] }))).toBe('**inside**\n\nplain');
    for (const garbage of [null, 'x', 42, [], {}, { nodes: 'no' }, { nodes: [null, 1, 'x', { object: 'block' }, { object: 'text', leaves: 'no' }] }]) {
      expect(documentToMarkdown(garbage)).toBe('');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { unfoldGitbookTags } from '../../src/domain/exports/gitbook-tags.ts';
import { ExportTooLargeError, renderPdf, type ExportPage } from '../../src/domain/exports/render-pdf.ts';
import { pdfText } from '../support/pdf.ts';
import { makePng } from '../support/png.ts';

const page = (markdown: string, extra: Partial<ExportPage> = {}): ExportPage => ({ kind: 'document', title: 'A page', description: null, depth: 0, markdown, linkTarget: null, images: new Map(), ...extra });

async function* from(pages: ExportPage[]): AsyncIterable<ExportPage> {
  yield* pages;
}

const render = (pages: ExportPage[], maxBytes = 50 * 1024 * 1024) => renderPdf(from(pages), { title: 'Test', created: new Date('2026-01-01T00:00:00Z'), maxBytes });

describe('GitBook block tags', () => {
  it('turn a hint into a marked quote, a tab title into a bold line, an embed into a link, and leave code fences alone', () => {
    const md = ['{% hint style="danger" %}', 'Careful.', '```', '{% hint style="info" %}', '```', '{% endhint %}', '{% tabs %}', '{% tab title="macOS" %}', 'brew install', '{% endtab %}', '{% endtabs %}', '{% embed url="https://video.example.com/1" %}'].join('\n');
    expect(unfoldGitbookTags(md).split('\n')).toEqual([
      '> ⟦hint:danger⟧',
      '>',
      '> Careful.',
      '> ```',
      '> {% hint style="info" %}',
      '> ```',
      '',
      '**macOS**',
      '',
      'brew install',
      '<https://video.example.com/1>',
    ]);
  });
});

describe('renderPdf', () => {
  it('gives the same bytes for the same content (a re-render stores the same blob)', async () => {
    const pages = [page('# Title\n\nSome *text*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n')];
    const [one, two] = await Promise.all([render(pages), render(pages)]);
    expect(one.bytes.equals(two.bytes)).toBe(true);
  });

  it('draws PNG images of the revision and names the ones it cannot draw', async () => {
    const images = new Map([
      ['ok.png', { key: 'a'.repeat(64), bytes: makePng(64, 32) }],
      ['broken.png', { key: 'b'.repeat(64), bytes: Buffer.from('not a png at all') }],
    ]);
    const out = await render([page('![Good chart](ok.png)\n\n![Broken chart](broken.png)\n\n![Remote](https://example.com/x.png)\n', { images })]);
    const { text } = await pdfText(out.bytes);
    expect(text).toContain('Good chart');
    expect(text).toContain('[Image: Broken chart]');
    expect(text).toContain('[Image: Remote]');
    expect(out.bytes.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(1);
  });

  it('lays out hostile Markdown without failing: deep nesting, wide tables, endless lines, control characters, any script', async () => {
    const deepList = Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
    const deepQuote = `${'>'.repeat(80)} deepest quote`;
    const wide = `| ${Array.from({ length: 40 }, (_, i) => `c${i}`).join(' | ')} |\n| ${Array(40).fill('---').join(' | ')} |\n| ${'long cell '.repeat(600)} | x |\n`;
    const endless = `\`\`\`\n${'y'.repeat(20_000)}\n\`\`\`\n`;
    const odd = 'Ctrl \u0001\u0007 chars, emoji 🎉, CJK 文档, Arabic مرحبا, Cyrillic Документ, Greek Έγγραφο, zero-width \u200b.\n\n<div>raw <b>html</b> text</div>\n\n[^1]\n\n[^1]: A footnote.\n';
    const out = await render([page(deepList), page(deepQuote), page(wide), page(endless), page(odd), page(''), { ...page(''), kind: 'group', markdown: null }]);
    const { text, pages } = await pdfText(out.bytes);
    expect(text).toContain('level 59');
    expect(text).toContain('deepest quote');
    expect(text).toContain('c39');
    expect(text).toContain('yyyyyyyy');
    // DejaVu covers Latin, Greek, Cyrillic and more; CJK has no glyphs in it (drawn as boxes, see README).
    expect(text).toContain('Cyrillic Документ, Greek Έγγραφο');
    expect(text).toContain('raw html text');
    expect(text).toContain('A footnote.');
    expect(pages).toBeLessThan(40);
  });

  it('stops past the output bound', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => page(`# Page ${i}\n\n${'words '.repeat(2000)}`));
    await expect(render(pages, 20 * 1024)).rejects.toBeInstanceOf(ExportTooLargeError);
  });
});

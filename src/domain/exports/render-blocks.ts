import type { Blockquote, Code, List, Paragraph, RootContent } from 'mdast';
import { hintStyleOf } from './gitbook-tags.ts';
import { clean, inlineRuns, plainText } from './inline-runs.ts';
import { COLORS, GAP, SIZES } from './pdf-theme.ts';
import type { PdfWriter } from './pdf-writer.ts';
import { renderImage, type ImageSource } from './render-image.ts';
import { renderTable } from './render-table.ts';

export type BlockContext = { images: ImageSource; depth: number; tight: boolean };

/** Nesting past this depth (lists, quotes) stops indenting: the text keeps a readable width. */
const MAX_INDENT_DEPTH = 8;
const BULLETS = ['•', '◦', '▪'];

/** Lays out Markdown blocks (mdast) in the writer's current frame, page after page. */
export function renderBlocks(w: PdfWriter, nodes: RootContent[], ctx: BlockContext): void {
  for (const node of nodes) renderBlock(w, node, ctx);
}

function renderBlock(w: PdfWriter, node: RootContent, ctx: BlockContext): void {
  switch (node.type) {
    case 'heading': {
      const size = SIZES.headings[node.depth - 1] ?? SIZES.body;
      w.gap(size * 0.6);
      // Keep a heading with the first lines under it.
      w.ensureSpace(size * 4);
      w.write(inlineRuns(node.children, { font: 'bold' }), { size });
      w.gap(GAP * 0.6);
      return;
    }
    case 'paragraph':
      return renderParagraph(w, node, ctx);
    case 'list':
      renderList(w, node, ctx);
      w.gap(ctx.tight ? 2 : GAP);
      return;
    case 'blockquote':
      return renderQuote(w, node, ctx);
    case 'code':
      return renderCode(w, node);
    case 'table':
      renderTable(w, node);
      w.gap();
      return;
    case 'thematicBreak': {
      w.ensureSpace(GAP * 2);
      const y = w.doc.y + GAP / 2;
      w.doc.save().moveTo(w.frame.x, y).lineTo(w.frame.x + w.frame.width, y).lineWidth(0.7).strokeColor(COLORS.rule).stroke().restore();
      w.doc.y = y + GAP;
      return;
    }
    case 'html': {
      // Raw HTML is not rendered; its text is kept so nothing of the page is lost.
      const text = clean(node.value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim());
      if (text) renderRuns(w, [{ text, font: 'sans', color: COLORS.muted, link: null, strike: false }], ctx);
      return;
    }
    case 'footnoteDefinition':
      renderRuns(w, [{ text: `[${clean(node.identifier)}]`, font: 'sans', color: COLORS.muted, link: null, strike: false }], { ...ctx, tight: true });
      w.indented(14, () => renderBlocks(w, node.children, ctx));
      return;
    case 'yaml':
    case 'definition':
      return;
    default:
      if ('children' in node && Array.isArray(node.children)) renderBlocks(w, node.children as RootContent[], ctx);
  }
}

function renderRuns(w: PdfWriter, runs: ReturnType<typeof inlineRuns>, ctx: BlockContext): void {
  w.write(runs, { size: SIZES.body });
  w.gap(ctx.tight ? 2 : GAP);
}

function renderParagraph(w: PdfWriter, node: Paragraph, ctx: BlockContext): void {
  const images = node.children.filter((c) => c.type === 'image');
  const standalone = images.length > 0 && node.children.every((c) => c.type === 'image' || (c.type === 'text' && !c.value.trim()) || c.type === 'break');
  if (!standalone) return renderRuns(w, inlineRuns(node.children), ctx);
  for (const image of images) renderImage(w, ctx.images, image.url, image.alt ?? '');
}

function renderList(w: PdfWriter, list: List, ctx: BlockContext): void {
  const doc = w.doc;
  const start = list.start ?? 1;
  doc.font('sans').fontSize(SIZES.body);
  const markerWidth = list.ordered ? doc.widthOfString(`${start + list.children.length}.`) + 8 : 14;
  const inner = { ...ctx, depth: ctx.depth + 1, tight: !list.spread };
  list.children.forEach((item, i) => {
    const marker = typeof item.checked === 'boolean' ? (item.checked ? '☑' : '☐') : list.ordered ? `${start + i}.` : BULLETS[ctx.depth % BULLETS.length]!;
    doc.font('sans').fontSize(SIZES.body);
    w.ensureSpace(doc.currentLineHeight(true) * 2);
    const y = doc.y;
    // Past the depth that indents, items stay level and their markers hang in the margin left of them.
    const indent = ctx.depth < MAX_INDENT_DEPTH ? markerWidth : 0;
    doc.fillColor(COLORS.text).text(marker, w.frame.x + indent - markerWidth, y, { width: markerWidth, lineBreak: false });
    doc.y = y;
    w.indented(indent, () => renderBlocks(w, item.children, inner));
    // An empty item still takes its line.
    if (doc.y === y) doc.y = y + doc.currentLineHeight(true);
  });
}

function renderQuote(w: PdfWriter, node: Blockquote, ctx: BlockContext): void {
  const [first, ...rest] = node.children;
  const style = first?.type === 'paragraph' ? hintStyleOf(plainText(first.children)) : null;
  const children = style === null ? node.children : rest;
  const color = style === null ? COLORS.quote : (COLORS.hints[style] ?? COLORS.hints.info!);
  const indent = ctx.depth < MAX_INDENT_DEPTH ? 14 : ctx.depth < 2 * MAX_INDENT_DEPTH ? 4 : 0;
  w.ensureSpace(w.doc.currentLineHeight(true) * 2);
  w.withBar(color, () => w.indented(indent, () => renderBlocks(w, children, { ...ctx, depth: ctx.depth + 1, tight: false })));
  w.gap(2);
}

/** Code in monospace on a tinted panel, split across pages by whole lines; long lines wrap at the panel's edge. */
function renderCode(w: PdfWriter, node: Code): void {
  const doc = w.doc;
  const pad = 6;
  doc.font('mono').fontSize(SIZES.code);
  const perLine = Math.max(10, Math.floor((w.frame.width - 2 * pad) / doc.widthOfString('M')));
  const lines = clean(node.value)
    .split('\n')
    .flatMap((line) => wrapHard(line, perLine));
  const lineHeight = doc.currentLineHeight(true) + 1.5;
  let next = 0;
  while (next < lines.length) {
    w.ensureSpace(lineHeight * Math.min(3, lines.length - next) + 2 * pad);
    const fit = Math.max(1, Math.floor((w.bottom - doc.y - 2 * pad) / lineHeight));
    const chunk = lines.slice(next, next + fit);
    const top = doc.y;
    const height = chunk.length * lineHeight + 2 * pad;
    doc.save().rect(w.frame.x, top, w.frame.width, height).fill(COLORS.codeBackground).restore();
    doc.font('mono').fontSize(SIZES.code).fillColor(COLORS.text);
    chunk.forEach((line, j) => {
      if (line) doc.text(line, w.frame.x + pad, top + pad + j * lineHeight, { lineBreak: false });
    });
    doc.y = top + height;
    next += chunk.length;
    if (next < lines.length) w.newPage();
  }
  doc.x = w.frame.x;
  w.gap();
}

function wrapHard(line: string, width: number): string[] {
  const chars = [...line];
  if (chars.length <= width) return [line];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(''));
  return out;
}

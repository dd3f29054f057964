/** Deterministic text for benchmarks: a seeded generator and Zipf-distributed words. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sta', 'tor', 'vel', 'din', 'qua', 'zen', 'pho', 'gri', 'bel', 'xan', 'yor'];

/** A vocabulary of `size` made-up words, most frequent first. */
export function vocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

/** Picks words with a Zipf-like distribution, like real text. */
export function wordPicker(words: string[], random: () => number): () => string {
  return () => words[Math.min(words.length - 1, Math.floor(Math.pow(random(), 3) * words.length))]!;
}

export function paragraph(pick: () => string, words: number): string {
  return Array.from({ length: words }, pick).join(' ') + '.';
}

/** A page of Markdown with a title and a few sections. */
export function pageMarkdown(title: string, pick: () => string, random: () => number): string {
  const sections = 1 + Math.floor(random() * 3);
  let md = `# ${title}\n\n${paragraph(pick, 40)}\n`;
  for (let i = 0; i < sections; i++) md += `\n## ${pick()} ${pick()}\n\n${paragraph(pick, 60)}\n`;
  return md;
}

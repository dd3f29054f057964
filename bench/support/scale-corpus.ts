import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom, type Random } from '../../src/domain/conversations/clustering/random.ts';
import { parseCsv, type LabelledTexts } from './clustering-datasets.ts';

// Light rewordings a support inbox shows anyway: greetings, sign-offs, a synonym, a typo.
// None changes what is asked, so each variant keeps its source's intent label.
const OPENINGS = ['', 'hi, ', 'hello, ', 'hey there, ', 'good morning, ', 'quick question: ', 'please help: ', 'excuse me, '];
const CLOSINGS = ['', ' thanks', ' thank you!', ' please', ' asap', ' any ideas?', ' cheers', ' thx'];
const SYNONYMS: Record<string, string> = {
  want: 'would like', can: 'could', get: 'obtain', need: 'require', help: 'assist', why: 'how come',
  money: 'funds', tell: 'show', check: 'verify', please: 'pls', my: 'my own', i: 'I',
};

const pick = <T>(list: T[], random: Random): T => list[Math.floor(random() * list.length)]!;

function vary(text: string, random: Random): string {
  let words = text.trim().split(/\s+/);
  words = words.map((w) => (random() < 0.15 && SYNONYMS[w.toLowerCase()] ? SYNONYMS[w.toLowerCase()]! : w));
  if (random() < 0.3) {
    // One transposed pair of letters inside a longer word, as typed in a hurry.
    const long = words.map((w, i) => [w, i] as const).filter(([w]) => /^[a-z]{5,}$/i.test(w));
    if (long.length > 0) {
      const [w, i] = pick(long, random);
      const p = 1 + Math.floor(random() * (w.length - 3));
      words[i] = w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2);
    }
  }
  return pick(OPENINGS, random) + words.join(' ') + pick(CLOSINGS, random);
}

/**
 * `size` labelled texts from BANKING77 train + test and HWU64 train (22,037 originals, 141
 * intents, the two sets' labels kept apart): the originals first, then deterministic
 * variants of them, round after round. Null when the data folder is absent.
 */
export function scaleCorpus(root: string, size: number, seed = 1): LabelledTexts | null {
  const files = ['banking77/train.csv', 'banking77/test.csv', 'hwu64/train/seq.in', 'hwu64/train/label'].map((f) => join(root, f));
  if (!files.every(existsSync)) return null;
  const pairs: [string, string][] = [];
  for (const file of files.slice(0, 2)) {
    for (const row of parseCsv(readFileSync(file, 'utf8')).slice(1)) pairs.push([row[0]!, `banking:${row[1]}`]);
  }
  const hwuTexts = readFileSync(files[2]!, 'utf8').split('\n');
  const hwuLabels = readFileSync(files[3]!, 'utf8').split('\n');
  hwuTexts.forEach((t, i) => t.trim() && pairs.push([t, `hwu:${hwuLabels[i]}`]));
  const random = seededRandom(seed);
  const ids = new Map<string, number>();
  const texts: string[] = [];
  const labels: number[] = [];
  for (let i = 0; i < size; i++) {
    const [text, label] = pairs[i % pairs.length]!;
    texts.push(i < pairs.length ? text : vary(text, random));
    labels.push(ids.get(label) ?? (ids.set(label, ids.size), ids.size - 1));
  }
  return { name: `scale corpus (${size} texts)`, texts, labels, classes: ids.size };
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LabelledTexts {
  name: string;
  texts: string[];
  labels: number[];
  classes: number;
}

/** Minimal RFC 4180 reader: quoted fields, doubled quotes, commas and newlines inside quotes. */
export function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows.filter((r) => r.length > 1 || r[0]);
}

function labelled(name: string, pairs: [string, string][]): LabelledTexts {
  const ids = new Map<string, number>();
  const labels = pairs.map(([, label]) => ids.get(label) ?? (ids.set(label, ids.size), ids.size - 1));
  return { name, texts: pairs.map(([text]) => text), labels, classes: ids.size };
}

/** The three evaluation sets of ../shared/data/clustering (see its README); null when the folder is absent. */
export function loadClusteringDatasets(root: string): LabelledTexts[] | null {
  const banking = join(root, 'banking77/test.csv');
  const insurance = join(root, 'dstc11-insurance/development.test-utterances.jsonl');
  const hwu = join(root, 'hwu64/test');
  if (![banking, insurance, hwu].every(existsSync)) return null;
  const bankingRows = parseCsv(readFileSync(banking, 'utf8')).slice(1);
  const insuranceRows = readFileSync(insurance, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { utterance: string; intent: string });
  const hwuTexts = readFileSync(join(hwu, 'seq.in'), 'utf8').split('\n');
  const hwuLabels = readFileSync(join(hwu, 'label'), 'utf8').split('\n');
  return [
    labelled('BANKING77 test', bankingRows.map((r) => [r[0]!, r[1]!])),
    labelled('DSTC11 insurance', insuranceRows.map((r) => [r.utterance, r.intent])),
    labelled('HWU64 test', hwuTexts.map((t, i) => [t, hwuLabels[i] ?? ''] as [string, string]).filter(([t]) => t.trim())),
  ];
}

import { truncate } from './extract-issues.ts';

export type ClusterDescription = { label: string; summary: string; icon: string };

const LABEL_MAX = 60;
const SUMMARY_MAX = 500;

/**
 * Icon names (GitBook's icon set, Font Awesome names) by topic. A cluster's words are read
 * in order (distinctive terms first, then titles); the first that a row names picks its
 * icon. Keywords match whole words (or their plural) and, from five letters, word prefixes
 * ("export" also matches "exporting", "card" not "cardigan"), so a short list covers the forms.
 */
const ICONS: ReadonlyArray<readonly [icon: string, keywords: readonly string[]]> = [
  ['credit-card', ['card', 'payment', 'pay', 'charge', 'refund', 'billing', 'invoice', 'subscription', 'price', 'pricing', 'plan', 'money', 'transfer', 'top']],
  ['key', ['password', 'login', 'log', 'sign', 'signin', 'account', 'auth', 'sso', 'saml', 'token', '2fa', 'mfa', 'verify', 'verification', 'pin']],
  ['file-export', ['export', 'download', 'pdf', 'csv', 'backup']],
  ['file-import', ['import', 'upload', 'migrate', 'migration', 'sync', 'git', 'github', 'gitlab']],
  ['magnifying-glass', ['search', 'find', 'results', 'index']],
  ['globe', ['domain', 'dns', 'url', 'site', 'publish', 'published', 'seo', 'website']],
  ['users', ['team', 'member', 'invite', 'user', 'users', 'permission', 'role', 'access', 'share', 'sharing']],
  ['plug', ['api', 'integration', 'webhook', 'endpoint', 'openapi', 'sdk', 'plugin']],
  ['language', ['translation', 'translate', 'language', 'locale']],
  ['envelope', ['email', 'mail', 'notification', 'notifications', 'newsletter']],
  ['triangle-exclamation', ['error', 'bug', 'crash', 'broken', 'fail', 'failed', 'fails', 'slow', 'timeout', 'down']],
  ['pen-to-square', ['edit', 'editor', 'page', 'content', 'block', 'format', 'markdown', 'table', 'image']],
  ['gear', ['settings', 'setting', 'configure', 'configuration', 'setup', 'custom', 'customize', 'theme']],
  ['mobile-screen', ['app', 'mobile', 'phone', 'ios', 'android']],
  ['truck', ['delivery', 'shipping', 'order', 'arrive', 'arrived', 'tracking']],
];
export const DEFAULT_ICON = 'circle-question';

/**
 * A cluster's label, summary and icon, offline: the label from its distinctive terms
 * (most distinctive first, at most three, as long as they fit), the summary from its
 * representative issues' titles, the icon by topic (ICONS, else DEFAULT_ICON).
 */
export function describeCluster(terms: string[], representativeTitles: string[]): ClusterDescription {
  const label = labelOf(terms, representativeTitles);
  const titles = [...new Set(representativeTitles.map((t) => t.trim()).filter(Boolean))].slice(0, 3);
  const about = terms.slice(0, 3).join(', ') || label.toLowerCase();
  const examples = titles.map((t) => `“${truncate(t, 120)}”`);
  const summary = examples.length
    ? `Customers ask about ${about}, for example ${examples.length > 1 ? `${examples.slice(0, -1).join(', ')} and ${examples.at(-1)}` : examples[0]}.`
    : `Customers ask about ${about}.`;
  return { label, summary: truncate(summary, SUMMARY_MAX), icon: iconOf([...terms, ...representativeTitles]) };
}

function labelOf(terms: string[], titles: string[]): string {
  let label = '';
  for (const term of terms.slice(0, 3)) {
    const next = label ? `${label}, ${term}` : term;
    if (next.length > LABEL_MAX) break;
    label = next;
  }
  // No distinctive word (one-issue or uniform clusters): the first issue's title names it.
  if (!label) label = truncate(titles[0] ?? 'Other issues', LABEL_MAX);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The icon of the first word, in the order given, that a topic of ICONS names. */
export function iconOf(texts: string[]): string {
  const words = texts.flatMap((t) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  for (const w of words) {
    const row = ICONS.find(([, keywords]) => keywords.some((k) => w === k || w === `${k}s` || (k.length >= 5 && w.startsWith(k))));
    if (row) return row[0];
  }
  return DEFAULT_ICON;
}

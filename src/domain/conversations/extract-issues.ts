import type { ConversationPart } from '../entities/conversation.entity.ts';

export type ExtractedIssue = { title: string; summary: string };

export const TITLE_MAX = 100;
export const SUMMARY_MAX = 600;

/**
 * The issues a conversation raises, by offline heuristics: what the customer wrote
 * (user parts) decides, replies (assistant, team member) only add context to the summary.
 * Anything the customer wrote beyond greetings, thanks and goodbyes raises the issue:
 * customers report as often as they ask ("I have been charged twice on my statement."),
 * so requiring a question loses real issues (a third of BANKING77's and HWU64's
 * messages have no question mark or interrogative opening). A conversation whose
 * customer only greets, thanks or says goodbye raises none. One issue per conversation
 * for now: the title is the customer's first sentence that asks or reports a problem
 * (a question mark, an interrogative opening, error, cannot, not working…), else their
 * first substantive sentence; their substantive sentences are the summary.
 */
export function extractIssues(conversation: { subject: string | null; parts: ConversationPart[] }): ExtractedIssue[] {
  const asked = conversation.parts.filter((p) => p.role === 'user').flatMap((p) => sentences(p.body));
  const substantive = asked.filter((s) => !isPleasantry(s));
  if (substantive.length === 0) return [];
  const title = truncate(stripGreeting(substantive.find(isQuestionOrProblem) ?? substantive[0]!), TITLE_MAX);
  const told = substantive.slice(0, 4).join(' ');
  const reply = conversation.parts
    .filter((p) => p.role !== 'user')
    .flatMap((p) => sentences(p.body))
    .find((s) => !isPleasantry(s));
  const subject = conversation.subject?.trim();
  const summary = [
    subject && !told.toLowerCase().includes(subject.toLowerCase()) ? `${truncate(subject, 120)}:` : '',
    `${ASKED} ${told}`,
    reply ? `${REPLIED} ${truncate(reply, 200)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return [{ title, summary: truncate(summary, SUMMARY_MAX) }];
}

const ASKED = 'The customer asked:';
const REPLIED = 'Reply given:';

/**
 * What the customer wrote, from an issue's summary: without the reply (context for a
 * reader, but replies such as "thanks, we are on it" would make unrelated issues alike)
 * and without the summary's fixed wording.
 */
export function customerWords(summary: string): string {
  const replied = summary.lastIndexOf(` ${REPLIED} `);
  return (replied >= 0 ? summary.slice(0, replied) : summary).replace(ASKED, ' ').trim();
}

/** Plain text of a Markdown or HTML body, cut into sentences. */
export function sentences(body: string): string[] {
  const text = plainText(body);
  return (text.match(/[^.!?\n]+(?:[.!?]+|$)/g) ?? []).map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
}

function plainText(body: string): string {
  return body
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/p>|<\/div>|<\/li>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[#>*\-\s]+/gm, '')
    .replace(/[`*_~]+/g, '')
    .replace(/[ \t]+/g, ' ');
}

const GREETING = /^(hi|hello|hey|dear|good (morning|afternoon|evening)|greetings|thanks|thank you|thx|cheers|ok|okay|great|perfect|awesome|cool|bye|goodbye|see you|have a (nice|good|great) day|regards|best|yes|no|sure|got it|sounds good|that works|that helped|it works now|all good|no problem|you too)\b/i;
const FILLER = new Set(['hi', 'hello', 'hey', 'there', 'team', 'thanks', 'thank', 'you', 'so', 'much', 'a', 'lot', 'bye', 'ok', 'okay', 'great', 'cheers', 'all', 'good', 'have', 'nice', 'day', 'see', 'again', 'for', 'the', 'help', 'your', 'very', 'many', 'best', 'regards', 'and', 'that', 'it', 'works', 'now', 'perfect', 'awesome', 'cool', 'yes', 'no', 'sure', 'got', 'everyone', 'folks', 'guys', 'morning', 'afternoon', 'evening', 'goodbye', 'thx', 'ty', 'really', 'appreciate', 'appreciated', 'helped', 'helpful', 'sounds', 'too', 'was', 'is', 'this', 'fine']);

/** Only greetings, thanks and goodbyes: nothing asked. */
function isPleasantry(sentence: string): boolean {
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.every((w) => FILLER.has(w)) || (GREETING.test(sentence.trim()) && words.length <= 4 && !sentence.includes('?'));
}

const ASKING = /^(how|what|why|when|where|which|who|whom|whose|can|could|would|will|should|shall|is|are|am|do|does|did|has|have|may|might|isn'?t|aren'?t|doesn'?t|don'?t|can'?t|won'?t|any (idea|way)|is there|are there)\b/i;
const PROBLEM = /\b(error|errors|fail(s|ed|ing|ure)?|broken|bug|crash(es|ed)?|issue|problem|not (work|load|show|find|see|able|sure)|n'?t (work|load|show|find|see|get|access|log|seem|understand|know)|cannot|can ?not|unable|stuck|missing|wrong|help|trying to|try to|need to|want to|would like to|how (do|can|to)|lost|timeout|denied|forbidden|invalid)\b/i;

function isQuestionOrProblem(sentence: string): boolean {
  const s = stripGreeting(sentence);
  return s.endsWith('?') || ASKING.test(s) || PROBLEM.test(s);
}

/** "Hi team, how do I…" → "how do I…": a title starts at the question. */
function stripGreeting(sentence: string): string {
  const stripped = sentence.replace(/^((hi|hello|hey|dear|good (morning|afternoon|evening))\b[^,;:!-]{0,30}[,;:!-]\s*)+/i, '').trim();
  const s = stripped || sentence.trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** At most `max` characters (code points), cut at a word boundary with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text.trim());
  if (chars.length <= max) return chars.join('');
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * English function words that say nothing about a support topic. Negations ("not",
 * "no", "cant") and question words stay out of this list on purpose: "card not
 * working" and "card working" are different issues.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again all am an and any are as at be because been before being below between both but by
  could did do does doing down during each few for from further had has have having he her here hers herself him
  himself his i id ill im ive if in into is it its itself just let lets me more most my myself of off on once only or
  other our ours ourselves out over own same she should so some such than that thats the their theirs them
  themselves then there theres these they theyre this those through to too under until up very was we were
  were what whats which while who whom would you youd youll youre youve your yours yourself yourselves
  hi hello hey please thanks thank thx pls plz also really just ok okay yes yeah`.split(/\s+/).filter(Boolean),
);

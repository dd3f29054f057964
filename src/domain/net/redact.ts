/**
 * The one redaction of secrets in URLs: userinfo (Git remotes, spec URLs) and token-like
 * query parameters. Every URL or message quoting one that a response or a log carries
 * goes through here first.
 */
const SECRET_PARAM = /token|key|secret|password|passwd|pwd|auth|signature|sig|credential|session/i;

/**
 * A URL without its userinfo and with token-like query parameters masked: the one form in
 * which URLs (and messages quoting them) reach responses and logs. Anything unparsable in
 * `text` that looks like `scheme://user:pass@` is masked too.
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const key of [...u.searchParams.keys()]) if (SECRET_PARAM.test(key)) u.searchParams.set(key, 'REDACTED');
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** Every URL inside a message, redacted (see redactUrl). */
export function redactText(text: string): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (match) => {
    const trailing = /[.,;:)\]]+$/.exec(match)?.[0] ?? '';
    const core = trailing ? match.slice(0, -trailing.length) : match;
    const redacted = redactUrl(core);
    return (redacted === '(invalid URL)' ? core.replace(/\/\/[^/@]*@/, '//') : redacted) + trailing;
  });
}


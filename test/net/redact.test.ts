import { describe, expect, it } from 'vitest';
import { redactText, redactUrl } from '../../src/domain/net/redact.ts';
import { createLogger } from '../../src/runtime.ts';

describe('URL redaction', () => {
  it('drops userinfo and masks token-like query parameters, keeping the rest', () => {
    expect(redactUrl('https://deploy:hunter2@git.example.test/org/repo.git')).toBe('https://git.example.test/org/repo.git');
    expect(redactUrl('https://api.example.test/spec.yaml?access_token=abc&version=2&api_key=k&sig=s')).toBe(
      'https://api.example.test/spec.yaml?access_token=REDACTED&version=2&api_key=REDACTED&sig=REDACTED',
    );
    expect(redactUrl('not a url')).toBe('(invalid URL)');
  });

  it('redacts every URL inside a message, punctuation around it kept', () => {
    const message = 'Could not clone https://u:hunter2@h.test/r.git (at main). Then http://x.test/a?token=t1, done';
    const redacted = redactText(message);
    expect(redacted).not.toMatch(/hunter2|t1/);
    expect(redacted).toBe('Could not clone https://h.test/r.git (at main). Then http://x.test/a?token=REDACTED, done');
  });
});

describe('logs', () => {
  it('redact the err of every line, as a message or as an error', () => {
    const lines: string[] = [];
    const log = createLogger({ logLevel: 'info' }, 'redaction-test', { write: (line: string) => void lines.push(line) });
    log.warn({ err: 'fetch https://u:hunter2@h.test/spec.yaml failed' }, 'job failed for good');
    log.error({ err: new Error('clone of https://deploy:s3cret@git.test/r.git failed') }, 'worker error');
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toMatch(/hunter2|s3cret/);
    expect(JSON.parse(lines[1]!).err.message).toBe('clone of https://git.test/r.git failed');
  });
});

import { ProviderError, pseudoProvider, type TranslateRequest, type TranslationProvider } from '../../src/domain/translations/provider.ts';
import { marks } from './test-jobs.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The pseudo provider (under its name, so page hashes match a real `pseudo` run) with knobs:
 * a delay per call, a failure to throw, and every call's first segment (a page's title)
 * noted, in memory and, when `marksKey` is given, in Redis for tests that run it in another process.
 */
export class TestProvider implements TranslationProvider {
  readonly name = pseudoProvider.name;
  readonly batchSize = pseudoProvider.batchSize;
  delayMs = 0;
  failure: ProviderError | null = null;
  /** Rewrites each translation (a misbehaving engine); identity when absent. */
  mangle: ((translated: string) => string) | null = null;
  readonly calls: string[] = [];
  private readonly marksKey: string | undefined;

  constructor(opts: { delayMs?: number; marksKey?: string } = {}) {
    this.delayMs = opts.delayMs ?? 0;
    this.marksKey = opts.marksKey;
  }

  async translate(request: TranslateRequest, signal?: AbortSignal): Promise<string[]> {
    if (this.delayMs) await sleep(this.delayMs);
    if (this.failure) throw this.failure;
    this.calls.push(request.segments[0] ?? '');
    if (this.marksKey) await marks().rpush(this.marksKey, request.segments[0] ?? '');
    const out = await pseudoProvider.translate(request, signal);
    return this.mangle ? out.map(this.mangle) : out;
  }
}

import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../src/jobs/queues.ts';
import { jobs } from '../../src/jobs/registry.ts';
import { parseQueues } from '../../src/workers/worker-flags.ts';

describe('queues', () => {
  it('lists exactly the queues some job runs on', () => {
    expect([...QUEUES].sort()).toEqual([...new Set(jobs.map((j) => j.queue))].sort());
  });

  it('--queues accepts every listed queue and refuses one with no job', () => {
    expect(parseQueues(QUEUES.join(','))).toEqual([...QUEUES]);
    expect(() => parseQueues('webhooks')).toThrow(/--queues takes names from/);
  });
});

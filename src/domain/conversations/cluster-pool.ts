import { Piscina } from 'piscina';
import type { ClusterOutcome, ClusterTask } from './cluster-worker.ts';

let pool: Piscina | undefined;

/**
 * One thread per process: a re-clustering holds every issue of an organization in memory,
 * so two in one process wait for each other rather than double the peak. The thread
 * starts on first use and stops when idle.
 */
function threads(): Piscina {
  pool ??= new Piscina({ filename: new URL('./cluster-worker.ts', import.meta.url).href, minThreads: 0, maxThreads: 1, idleTimeout: 30_000 });
  return pool;
}

/** The task's vectors (n × dims floats, the largest part by far) are moved to the thread, not copied: the caller must not use them after. */
export function clusterInThread(task: ClusterTask): Promise<ClusterOutcome> {
  return threads().run(task, task.vectors ? { transferList: [task.vectors.data.buffer as ArrayBuffer] } : {});
}

export async function closeClusterPool(): Promise<void> {
  await pool?.destroy();
  pool = undefined;
}

import type { Logger } from 'pino';
import type { Clock } from '../domain/shared/clock.ts';
import type { Orm } from '../domain/orm.ts';
import type { QueueProducer } from '../jobs/producer.ts';
import { reconcileOutbox, type ReconcileResult } from '../jobs/reconcile.ts';
import { relayOutbox, type RelayResult } from '../jobs/relay.ts';
import { every } from './periodic.ts';
import {
  OUTBOX_LEASE_MS,
  RECONCILE_BATCH_SIZE,
  RECONCILE_GRACE_MS,
  RECONCILE_INTERVAL_MS,
  RELAY_BATCH_SIZE,
  RELAY_GRACE_MS,
  RELAY_INTERVAL_MS,
} from './settings.ts';

export type OutboxPassTimes = { relayIntervalMs?: number; relayGraceMs?: number; reconcileIntervalMs?: number; reconcileGraceMs?: number };

/** One pass limited to some rows (tests share the table with other files), as if it were `now`. */
export type PassScope = { ids?: readonly string[]; now?: Date };

export type OutboxPasses = {
  relayOnce(scope?: PassScope): Promise<RelayResult>;
  reconcileOnce(scope?: PassScope): Promise<ReconcileResult>;
  stop(): Promise<void>;
};

/** The relay (rows not yet enqueued) and the reconciler (enqueued rows Redis lost), each on its own timer. */
export function startOutboxPasses(orm: Orm, producer: QueueProducer, clock: Clock, log: Logger, times: OutboxPassTimes): OutboxPasses {
  const relayOnce = (scope: PassScope = {}) =>
    relayOutbox(orm.em, producer, scope.now ?? clock.now(), log, {
      graceMs: times.relayGraceMs ?? RELAY_GRACE_MS,
      batchSize: RELAY_BATCH_SIZE,
      leaseMs: OUTBOX_LEASE_MS,
      ids: scope.ids,
    });
  const reconcileOnce = (scope: PassScope = {}) =>
    reconcileOutbox(orm.em, producer, scope.now ?? clock.now(), log, {
      graceMs: times.reconcileGraceMs ?? RECONCILE_GRACE_MS,
      batchSize: RECONCILE_BATCH_SIZE,
      leaseMs: OUTBOX_LEASE_MS,
      ids: scope.ids,
    });
  const relay = every(times.relayIntervalMs ?? RELAY_INTERVAL_MS, async () => {
    const { enqueued } = await relayOnce();
    if (enqueued) log.info({ enqueued }, 'outbox relay enqueued left-behind jobs');
  }, log, 'outbox relay');
  const reconciler = every(times.reconcileIntervalMs ?? RECONCILE_INTERVAL_MS, async () => {
    await reconcileOnce();
  }, log, 'outbox reconciler');
  return {
    relayOnce,
    reconcileOnce,
    async stop() {
      await Promise.all([relay.stop(), reconciler.stop()]);
    },
  };
}

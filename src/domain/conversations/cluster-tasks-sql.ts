/**
 * The change requests an issue cluster `k` counts as its tasks, for SQL joined on
 * `change_requests c`: those of a live space of the cluster's own organization. One whose
 * space is in the bin (restorable: it counts again once restored) or was transferred to
 * another organization is no task of this cluster.
 */
export const LIVE_TASK_SPACE = 'join spaces s on s.id = c.space_id and s.deleted_at is null and s.organization_id = k.organization_id';

import { diffComm } from 'node-diff3';

export type OrderOutcome = { order: string[] } | { conflict: string[] };

/**
 * Merges the child order of one parent from its three child lists. `belongs` says which ids
 * end up under this parent after the page merge (removed and moved-away pages drop out).
 *
 * A side "reordered" when the siblings present in all three lists are in a different relative
 * order than in base; its order is then the skeleton (both reordering differently is a conflict
 * naming the pages whose places disagree). Otherwise ours is the skeleton — unless ours left the
 * list untouched — and the other side's additions go right after their nearest preceding
 * sibling that the skeleton kept in place (and after the skeleton's own additions there), so
 * each side's relative order survives.
 */
export function mergeSiblingOrder(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
  belongs: (id: string) => boolean,
): OrderOutcome {
  const inOurs = new Set(ours);
  const inTheirs = new Set(theirs);
  const common = new Set(base.filter((id) => inOurs.has(id) && inTheirs.has(id)));
  const baseC = base.filter((id) => common.has(id));
  const oursC = ours.filter((id) => common.has(id));
  const theirsC = theirs.filter((id) => common.has(id));
  const oursReordered = !sameList(oursC, baseC);
  const theirsReordered = !sameList(theirsC, baseC);
  if (oursReordered && theirsReordered && !sameList(oursC, theirsC)) {
    return { conflict: oursC.filter((id, i) => theirsC[i] !== id) };
  }
  const theirsLeads = theirsReordered ? !oursReordered : !oursReordered && sameList(ours, base);
  const [skeleton, other] = theirsLeads ? [theirs, ours] : [ours, theirs];
  const order = skeleton.filter(belongs);
  const placed = new Set(order);
  const inOther = new Set(other);
  // A sibling the skeleton moved is no anchor: the other side placed its pages after it where it was.
  const [skeletonC, otherC] = theirsLeads ? [theirsC, oursC] : [oursC, theirsC];
  const unmoved = sameList(skeletonC, otherC) ? common : new Set(diffComm(skeletonC, otherC).flatMap((part) => part.common ?? []));
  // The other side's additions, grouped by the anchor they follow (null: none precedes them).
  // One pass each way keeps this linear: a flat space can have thousands of top-level pages.
  const additions = new Map<string | null, string[]>();
  let anchor: string | null = null;
  for (const id of other) {
    if (placed.has(id)) {
      if (!common.has(id) || unmoved.has(id)) anchor = id;
    } else if (belongs(id)) {
      const group = additions.get(anchor);
      if (group) group.push(id);
      else additions.set(anchor, [id]);
    }
  }
  const merged: string[] = [];
  let i = 0;
  // Additions go after the skeleton's own additions at the same place: ours' come first.
  const skeletonOwn = () => {
    while (i < order.length && !inOther.has(order[i]!)) merged.push(order[i++]!);
  };
  skeletonOwn();
  merged.push(...(additions.get(null) ?? []));
  while (i < order.length) {
    const id = order[i++]!;
    merged.push(id);
    skeletonOwn();
    merged.push(...(additions.get(id) ?? []));
  }
  return { order: merged };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => b[i] === id);
}

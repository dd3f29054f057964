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
 * sibling that is already placed and that the skeleton did not move (after the skeleton's own additions there), so each side's
 * relative order survives.
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
  const inOther = new Set(other);
  // A sibling the skeleton moved is no anchor: the other side placed its pages after it where it was.
  const [skeletonC, otherC] = theirsLeads ? [theirsC, oursC] : [oursC, theirsC];
  const unmoved = new Set(diffComm(skeletonC, otherC).flatMap((part) => part.common ?? []));
  const anchor = (id: string) => !common.has(id) || unmoved.has(id);
  const placed = new Set(order);
  other.forEach((id, i) => {
    if (placed.has(id) || !belongs(id)) return;
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const before = anchor(other[j]!) ? order.indexOf(other[j]!) : -1;
      if (before >= 0) {
        at = before + 1;
        break;
      }
    }
    // After the skeleton's own additions at that place too: ours' come first.
    while (at < order.length && !inOther.has(order[at]!)) at++;
    order.splice(at, 0, id);
    placed.add(id);
  });
  return { order };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => b[i] === id);
}

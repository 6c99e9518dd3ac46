/**
 * One call's history writes, as a host wrote them, made again for another invocation id at the current time (the
 * keys keep their order: it costs when a store serialises them). The recording benches replay a real call this way.
 */
export function rewrite(writes, id) {
  const at = Date.now();
  return writes.map((w) => {
    const audit = w.audit === undefined ? undefined : { ...w.audit, invocationId: id, at };
    if (w.kind === 'create') {
      return { kind: 'create', record: { ...w.record, id }, first: { ...w.first, invocationId: id, at }, audit };
    }
    if (w.kind === 'audit') return { kind: 'audit', audit };
    const transition = { ...w.transition, invocationId: id, at };
    return w.result === undefined
      ? { kind: 'transition', scope: w.scope, transition, audit }
      : { kind: 'transition', scope: w.scope, transition, result: { ...w.result, invocationId: id }, audit };
  });
}

// @airlock/core/testing: test doubles and the store contract, shipped so that an application's tests, and any
// HostStore (ours and third parties'), run against the same cases the project's own tests run. Vitest is an optional
// peer dependency: the contract suite declares its cases with vitest's describe/it/expect. Nothing here loads a
// Node-only store: a store under test comes from its caller.
export { describeHostStoreContract } from './host-store-contract.js';
export type { HostStoreContractOptions, OpenedStore } from './store-contract-options.js';
export {
  SCOPE,
  TENANT,
  auditInput,
  auditWrites,
  createWrite,
  decision,
  decisionAudit,
  deleteWrite,
  expectRejection,
  invocation,
  move,
  opening,
  putWrite,
  resultFor,
  transitionWrite,
} from './host-store-fixtures.js';
export { FakeClock } from './fake-clock.js';
export { ScriptedSurface } from './scripted-surface.js';
export type { SurfaceScript } from './scripted-surface.js';
export { seeded } from './seeded.js';
export { scratchDir } from './scratch-dir.js';

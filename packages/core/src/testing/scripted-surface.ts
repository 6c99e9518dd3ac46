import type { Surface } from '../host/surface.js';
import type { ElicitationAnswer, ElicitationMode, ElicitationRequest } from '../elicitation/elicitation-request.js';
import type { PermissionDecision, PermissionRequest } from '../permissions/permission-request.js';

/** What a `ScriptedSurface` answers. */
export interface SurfaceScript {
  /** The answers to permission requests, in order; the last one repeats. Default: allow once, every time. */
  readonly permissions?: readonly PermissionDecision[];
  /**
   * The answers to servers' questions, in order; the last one repeats. Absent: the surface cannot answer questions,
   * so a host declares no elicitation capability (as with a surface that has no `elicit`).
   */
  readonly elicitations?: readonly ElicitationAnswer[];
  /** The modes it answers questions in (with `elicitations`). Default: form only. */
  readonly elicitationModes?: readonly ElicitationMode[];
}

/**
 * A `Surface` for tests: answers from a script and records every request it got, so a test can say both what the
 * user answered and what the user was shown. A single decision is short for a script that always gives it:
 * `new ScriptedSurface('deny_once')`.
 *
 * @example
 * ```ts
 * const surface = new ScriptedSurface({ permissions: ['allow_always'], elicitations: [{ action: 'decline' }] });
 * const host = createHost({ servers, surface });
 * // ... after a call
 * expect(surface.requests[0]?.tool.name).toBe('files__write');
 * ```
 */
export class ScriptedSurface implements Surface {
  /** The permission requests, in the order they came. */
  readonly requests: PermissionRequest[] = [];
  /** The servers' questions, in the order they came. */
  readonly questions: ElicitationRequest[] = [];
  readonly elicitationModes?: readonly ElicitationMode[];
  /** Present only when the script answers questions (see `SurfaceScript.elicitations`). */
  readonly elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  readonly #permissions: readonly PermissionDecision[];

  constructor(script: SurfaceScript | PermissionDecision = {}) {
    const full: SurfaceScript = typeof script === 'string' ? { permissions: [script] } : script;
    this.#permissions = full.permissions ?? ['allow_once'];
    const answers = full.elicitations;
    if (answers !== undefined && answers.length > 0) {
      this.elicitationModes = full.elicitationModes ?? ['form'];
      this.elicit = (request) => {
        this.questions.push(request);
        return Promise.resolve(answers[Math.min(this.questions.length, answers.length) - 1]!);
      };
    }
  }

  askPermission(request: PermissionRequest): Promise<PermissionDecision> {
    this.requests.push(request);
    const answers = this.#permissions;
    return Promise.resolve(answers[Math.min(this.requests.length, answers.length) - 1] ?? 'deny_once');
  }
}

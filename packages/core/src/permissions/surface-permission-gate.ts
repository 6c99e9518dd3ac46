import type { PreCallHook } from '../invocations/invocation-pipeline.js';
import type { PermissionDecision, Surface } from '../surface.js';
import { PERMISSION_DECISIONS } from '../surface.js';
import { toolDisplayName } from '../tools/tool.js';

/**
 * The permission gate as a pre-call hook: it asks the surface and lets the call run only on an allow. No surface,
 * a failed prompt or an unknown answer all deny (fail closed), each with a reason the model and the card can show.
 */
export function surfacePermissionGate(options: {
  surface: Surface | undefined;
  trusted: (serverId: string) => boolean;
}): PreCallHook {
  return async ({ invocation, tool, signal }) => {
    const surface = options.surface;
    if (surface === undefined) {
      return {
        allow: false,
        reason: `no surface is attached to ask the user, so ${tool.name} did not run`,
      };
    }
    const decision: unknown = await surface.askPermission(
      {
        invocationId: invocation.id,
        scope: invocation.scope,
        caller: invocation.caller,
        tool: {
          name: tool.name,
          displayName: toolDisplayName(tool),
          originalName: invocation.originalName,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        },
        server:
          invocation.serverId === null
            ? null
            : { id: invocation.serverId, trusted: options.trusted(invocation.serverId) },
        args: invocation.args,
        argsHash: invocation.argsHash,
      },
      signal,
    );
    if (!(PERMISSION_DECISIONS as readonly unknown[]).includes(decision)) {
      return { allow: false, reason: `the surface answered ${JSON.stringify(decision)}, not a decision; denied` };
    }
    if ((decision as PermissionDecision).startsWith('allow')) return { allow: true };
    return { allow: false, reason: `the user denied ${tool.name}; it was not run` };
  };
}

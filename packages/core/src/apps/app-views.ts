import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { sha256Hex } from '../audit/canonical-json.js';
import type { AuditEventInput } from '../store/audit-record.js';
import { auditEvent } from '../audit/audit-event-builder.js';
import { inspectUrl } from '../elicitation/url-safety.js';
import type { UrlInspection } from '../elicitation/url-safety.js';
import { HostError } from '../errors/host-error.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';
import type { Tool } from '../tools/tool.js';
import { toolTarget } from '../tools/tool.js';
import type { AppView } from './app-view.js';
import { appViewFrom, DEFAULT_APP_VIEW_MAX_BYTES } from './app-view.js';

/** What the views are read through: the registry, the scope's own connection (a read audited as any), identity. */
export interface AppViewsDeps {
  /** The tool by host name, as the user sees it (every tool); undefined when unknown. */
  readonly tool: (name: string, scope: Scope) => Tool | undefined;
  /** `resources/read` through the scope's connection to the server, audited; the whole contents. */
  readonly read: (scope: Scope, serverId: string, uri: string) => Promise<ReadResourceResult>;
  /** The server's identity (its command or URL, hashed): a server configured anew never reuses a cached view. */
  readonly identity: (serverId: string) => string | undefined;
  /** The connection a scope reaches on a server (per user or workspace), '' for a shared one. */
  readonly tenantOf: (serverId: string, scope: Scope) => string | undefined;
  /** Whether a surface that can show views is attached: false refuses every view without asking a server. */
  readonly enabled: boolean;
  readonly maxBytes?: number;
  /** How many views are kept; the oldest read is dropped first. */
  readonly cacheSize?: number;
  /** Appends an audit event (a view's link opened). */
  readonly audit: (event: AuditEventInput) => void;
  readonly now: () => number;
}

/**
 * The MCP Apps views of tools: a tool's own `ui://` resource read through the scope's connection, checked
 * (`appViewFrom`) and kept per server identity, tenant connection and tool definition hash, so a changed tool or a
 * reconfigured server reads afresh and one tenant never gets another's view.
 */
export class AppViews {
  readonly #deps: AppViewsDeps;
  readonly #cache = new Map<string, Promise<AppView>>();

  constructor(deps: AppViewsDeps) {
    this.#deps = deps;
  }

  /** The view of a tool (by host name), for a surface to render. */
  async view(options: { scope: Scope; tool: string }): Promise<AppView> {
    const scope = assertScope(options.scope);
    const tool = this.#deps.tool(options.tool, scope);
    if (tool === undefined) {
      throw new HostError('tool_not_found', `unknown tool ${options.tool}`, { data: { tool: options.tool } });
    }
    const { serverId } = toolTarget(tool);
    const uri = tool.resourceUri;
    if (serverId === null || uri === undefined) {
      throw new HostError('not_found', `tool ${tool.name} has no view`, { data: { tool: tool.name } });
    }
    if (!this.#deps.enabled) {
      throw new HostError(
        'not_supported',
        `this host shows no MCP Apps views (no surface that can render them); the view of ${tool.name} was not read`,
        { data: { tool: tool.name, serverId } },
      );
    }
    if (!uri.startsWith('ui://')) {
      throw new HostError('invalid_app_view', `tool ${tool.name} names a view that is not a ui:// resource: ${uri}`, {
        data: { tool: tool.name, serverId, uri },
      });
    }
    const identity = this.#deps.identity(serverId) ?? '';
    const tenant = this.#deps.tenantOf(serverId, scope) ?? '';
    const key = [serverId, identity, tenant, tool.name, tool.definitionHash, uri].join('\n');
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const maxBytes = this.#deps.maxBytes ?? DEFAULT_APP_VIEW_MAX_BYTES;
    const reading = this.#deps
      .read(scope, serverId, uri)
      .then((result) => appViewFrom({ serverId, tool: tool.name, uri, result }, maxBytes));
    this.#cache.set(key, reading);
    // A failed read is not kept: the next asks again.
    reading.catch(() => this.#cache.delete(key));
    const limit = this.#deps.cacheSize ?? 64;
    while (this.#cache.size > limit) this.#cache.delete(this.#cache.keys().next().value!);
    return reading;
  }

  /**
   * Records that the user consented to open a link a view of `tool` asked for (the surface opens it, in a new
   * top-level tab, never in the frame). Only http(s) URLs; the audit keeps the host and the URL's hash.
   */
  linkOpened(options: { scope: Scope; tool: string; url: string }): UrlInspection {
    const scope = assertScope(options.scope);
    const tool = this.#viewTool(options.tool, scope);
    const inspected = inspectUrl(options.url);
    if (!inspected.ok) {
      throw new HostError('invalid_arguments', `the view of ${tool.name} asked to open a link: ${inspected.reason}`);
    }
    this.#deps.audit(
      auditEvent({
        type: 'app.link_opened',
        at: this.#deps.now(),
        scope,
        serverId: toolTarget(tool).serverId,
        tool: tool.name,
        data: { host: inspected.inspection.host, urlHash: sha256Hex(inspected.inspection.url) },
      }),
    );
    return inspected.inspection;
  }

  /** Records that the user consented to send a view's message into the conversation: its length and hash only. */
  messageSent(options: { scope: Scope; tool: string; text: string }): void {
    const scope = assertScope(options.scope);
    const tool = this.#viewTool(options.tool, scope);
    this.#deps.audit(
      auditEvent({
        type: 'app.message_sent',
        at: this.#deps.now(),
        scope,
        serverId: toolTarget(tool).serverId,
        tool: tool.name,
        data: { chars: options.text.length, textHash: sha256Hex(options.text) },
      }),
    );
  }

  /** A tool that has a view, by host name; anything else is refused by name. */
  #viewTool(name: string, scope: Scope): Tool {
    const tool = this.#deps.tool(name, scope);
    if (tool?.resourceUri === undefined || toolTarget(tool).serverId === null) {
      throw new HostError('not_found', `tool ${name} has no view`, { data: { tool: name } });
    }
    return tool;
  }
}

import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';

/** The MIME type of an MCP Apps view: HTML meant to run in a sandboxed frame, talking to the host by postMessage. */
export const APP_VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** The MCP Apps extension as a client declares it (spec 2026-01-26): the view formats this host can render. */
export const APP_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The largest view the host renders, by default (its HTML in UTF-8 bytes). */
export const DEFAULT_APP_VIEW_MAX_BYTES = 2 * 1024 * 1024;

/** Origins a view may reach, as its resource declares them; the surface builds the frame's CSP from exactly these. */
export interface AppViewCsp {
  /** fetch, XHR and WebSocket (`connect-src`). */
  readonly connectDomains: readonly string[];
  /** Scripts, styles, images, fonts and media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  readonly resourceDomains: readonly string[];
  /** Nested frames (`frame-src`). */
  readonly frameDomains: readonly string[];
  /** Documents the view may itself be framed by (`base-uri` is always the view's own). */
  readonly baseUriDomains: readonly string[];
}

/** Browser features a view asks for; a surface grants them only as declared here and as its user allows. */
export type AppViewPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/** One tool's view, ready for a surface to render behind its sandbox proxy. */
export interface AppView {
  readonly serverId: string;
  /** The host tool name the view belongs to. */
  readonly tool: string;
  readonly uri: string;
  readonly html: string;
  /** Its size in UTF-8 bytes. */
  readonly bytes: number;
  readonly csp: AppViewCsp;
  readonly permissions: readonly AppViewPermission[];
  /** The view's preference for a visible border, when it states one. */
  readonly prefersBorder?: boolean;
}

const PERMISSIONS: readonly AppViewPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

/**
 * The view in a `resources/read` result, checked: exactly the tool's own `ui://` resource, of the MCP Apps MIME type,
 * text or base64 HTML within `maxBytes`. Its CSP origins are taken as declared and nothing is added; an origin that is
 * not a plain `scheme://host[:port]` (optionally `*.` subdomains) is refused by name rather than passed to a header.
 */
export function appViewFrom(
  read: { serverId: string; tool: string; uri: string; result: ReadResourceResult },
  maxBytes: number,
): AppView {
  const { serverId, tool, uri } = read;
  const where = `the view ${JSON.stringify(uri)} of tool ${tool} (server "${serverId}")`;
  const item = read.result.contents.find((c) => c.uri === uri);
  if (item === undefined) {
    throw new HostError('invalid_app_view', `${where} was not in the server's answer to resources/read`, {
      data: { serverId, tool, uri },
    });
  }
  const mime = (item.mimeType ?? '').replace(/\s+/g, '').toLowerCase();
  if (mime !== APP_VIEW_MIME_TYPE) {
    throw new HostError(
      'invalid_app_view',
      `${where} has MIME type ${JSON.stringify(item.mimeType ?? '')}, not ${APP_VIEW_MIME_TYPE}`,
      { data: { serverId, tool, uri } },
    );
  }
  const html = 'text' in item ? item.text : Buffer.from(item.blob, 'base64').toString('utf8');
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > maxBytes) {
    throw new HostError('app_view_too_large', `${where} is ${bytes} bytes, over the ${maxBytes}-byte bound`, {
      data: { serverId, tool, uri, bytes, maxBytes },
    });
  }
  const ui = uiMeta(item._meta);
  const csp = record(ui['csp']);
  const declared = record(ui['permissions']);
  return {
    serverId,
    tool,
    uri,
    html,
    bytes,
    csp: {
      connectDomains: origins(csp['connectDomains'], 'connectDomains', where),
      resourceDomains: origins(csp['resourceDomains'], 'resourceDomains', where),
      frameDomains: origins(csp['frameDomains'], 'frameDomains', where),
      baseUriDomains: origins(csp['baseUriDomains'], 'baseUriDomains', where),
    },
    permissions: PERMISSIONS.filter((p) => declared[p] !== undefined && declared[p] !== null),
    ...(typeof ui['prefersBorder'] === 'boolean' ? { prefersBorder: ui['prefersBorder'] } : {}),
  };
}

function uiMeta(meta: unknown): Record<string, unknown> {
  return record(record(meta)['ui']);
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `https://host`, `https://*.host:443`, `wss://host`: what a CSP source list may safely carry from a server. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;

function origins(value: unknown, field: string, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new HostError('invalid_app_view', `${where}: csp.${field} must be a list`);
  return value.map((entry: unknown) => {
    if (typeof entry !== 'string' || !ORIGIN.test(entry)) {
      throw new HostError(
        'invalid_app_view',
        `${where}: csp.${field} entry ${JSON.stringify(entry)} is not an origin (scheme://host[:port])`,
      );
    }
    return entry;
  });
}

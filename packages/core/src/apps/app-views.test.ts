import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { appViewFrom, APP_VIEW_MIME_TYPE } from './app-view.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function reads(h: Host): Promise<number> {
  const events = await h.audit.query({ scope: SCOPE });
  return events.filter((e) => e.type === 'resource.read').length;
}

describe('MCP Apps views through the host', () => {
  it("reads a tool's own ui:// view once per definition and serves it from the cache after", async () => {
    host = createHost({
      servers: [demoServer('demo').config],
      surface: new ScriptedSurface('allow_once'),
      apps: { views: true },
      durability: 'strict',
    });
    await host.servers.settled();
    const view = await host.apps.view({ scope: SCOPE, tool: 'demo__show_dashboard' });
    expect(view).toMatchObject({ serverId: 'demo', tool: 'demo__show_dashboard', uri: 'ui://demo/dashboard' });
    expect(view.html).toContain('Demo dashboard');
    expect(view.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
    expect(view.permissions).toEqual([]);
    expect(await host.apps.view({ scope: SCOPE, tool: 'demo__show_dashboard' })).toBe(view);
    expect(await reads(host)).toBe(1);
  });

  it('refuses a tool with no view, an unknown tool, and any view when no surface shows them', async () => {
    host = createHost({ servers: [demoServer('demo').config], surface: new ScriptedSurface('allow_once') });
    await host.servers.settled();
    await expect(host.apps.view({ scope: SCOPE, tool: 'demo__show_dashboard' })).rejects.toMatchObject({
      code: 'not_supported',
    });
    await expect(host.apps.view({ scope: SCOPE, tool: 'demo__echo' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(host.apps.view({ scope: SCOPE, tool: 'demo__nope' })).rejects.toMatchObject({
      code: 'tool_not_found',
    });
    expect(await reads(host)).toBe(0);
  });

  it('audits a link a view opened (the host and the hash, never the address) and refuses one that is not http(s)', async () => {
    host = createHost({
      servers: [demoServer('demo').config],
      surface: new ScriptedSurface('allow_once'),
      apps: { views: true },
      durability: 'strict',
    });
    await host.servers.settled();
    const url = 'https://docs.example.com/a?secret=1';
    expect(host.apps.linkOpened({ scope: SCOPE, tool: 'demo__show_dashboard', url })).toMatchObject({
      host: 'docs.example.com',
      warnings: [],
    });
    expect(() =>
      host!.apps.linkOpened({ scope: SCOPE, tool: 'demo__show_dashboard', url: 'javascript:alert(1)' }),
    ).toThrow(/only http and https URLs/);
    expect(() => host!.apps.linkOpened({ scope: SCOPE, tool: 'demo__echo', url })).toThrow(/has no view/);
    const events = (await host.audit.query({ scope: SCOPE })).filter((e) => e.type === 'app.link_opened');
    expect(events).toEqual([
      expect.objectContaining({
        serverId: 'demo',
        tool: 'demo__show_dashboard',
        data: expect.objectContaining({ host: 'docs.example.com' }) as unknown,
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain('secret');
    host.apps.messageSent({ scope: SCOPE, tool: 'demo__show_dashboard', text: 'a private message' });
    const sent = (await host.audit.query({ scope: SCOPE })).filter((e) => e.type === 'app.message_sent');
    expect(sent).toEqual([
      expect.objectContaining({
        tool: 'demo__show_dashboard',
        data: expect.objectContaining({ chars: 17 }) as unknown,
      }),
    ]);
    expect(JSON.stringify(sent)).not.toContain('private');
  });

  it('bounds the size of a view', async () => {
    host = createHost({
      servers: [demoServer('demo').config],
      surface: new ScriptedSurface('allow_once'),
      apps: { views: true, maxViewBytes: 100 },
    });
    await host.servers.settled();
    await expect(host.apps.view({ scope: SCOPE, tool: 'demo__show_dashboard' })).rejects.toMatchObject({
      code: 'app_view_too_large',
    });
  });
});

describe('appViewFrom', () => {
  const read = (item: Record<string, unknown>) => ({
    serverId: 's',
    tool: 's__t',
    uri: 'ui://s/v',
    result: { contents: [{ uri: 'ui://s/v', ...item }] } as never,
  });

  it('takes the declared CSP origins and permissions as they are', () => {
    const view = appViewFrom(
      read({
        mimeType: APP_VIEW_MIME_TYPE,
        text: '<p>hi</p>',
        _meta: {
          ui: {
            csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example'] },
            permissions: { camera: {} },
            prefersBorder: false,
          },
        },
      }),
      1000,
    );
    expect(view.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(view.csp.resourceDomains).toEqual(['https://*.cdn.example']);
    expect(view.permissions).toEqual(['camera']);
    expect(view.prefersBorder).toBe(false);
  });

  it('refuses another MIME type, a missing resource and an origin that is not one, naming it', () => {
    expect(() => appViewFrom(read({ mimeType: 'text/html', text: 'x' }), 1000)).toThrow(
      /not text\/html;profile=mcp-app/,
    );
    expect(() =>
      appViewFrom({ ...read({ mimeType: APP_VIEW_MIME_TYPE, text: 'x' }), uri: 'ui://s/other' }, 1000),
    ).toThrow(/was not in the server's answer/);
    expect(() =>
      appViewFrom(
        read({
          mimeType: APP_VIEW_MIME_TYPE,
          text: 'x',
          _meta: { ui: { csp: { connectDomains: ["* 'unsafe-eval'"] } } },
        }),
        1000,
      ),
    ).toThrow(/csp.connectDomains entry .* is not an origin/);
  });
});

import type { Client } from '@modelcontextprotocol/client';
import { NO_SDK_TIMEOUT_MS } from '../mcp-client/tool-call-request.js';

/** The most pages a count walks: a server that pages forever is counted as far as this, and said to have more. */
const MAX_PAGES = 20;

/**
 * How many resources and prompts a server offers, for its panel: every page of `resources/list` and `prompts/list`
 * (up to a bound), asked only of a server that declares the capability. A listing that fails leaves its count out.
 */
export async function countListed(client: Client): Promise<{ resources?: number; prompts?: number }> {
  const capabilities = client.getServerCapabilities() ?? {};
  const [resources, prompts] = await Promise.all([
    capabilities.resources === undefined
      ? undefined
      : countPages((cursor) =>
          client.listResources(cursor === undefined ? undefined : { cursor }, { timeout: NO_SDK_TIMEOUT_MS }),
        ).catch(() => undefined),
    capabilities.prompts === undefined
      ? undefined
      : countPages((cursor) =>
          client.listPrompts(cursor === undefined ? undefined : { cursor }, { timeout: NO_SDK_TIMEOUT_MS }),
        ).catch(() => undefined),
  ]);
  return {
    ...(resources === undefined ? {} : { resources }),
    ...(prompts === undefined ? {} : { prompts }),
  };
}

async function countPages(
  page: (cursor: string | undefined) => Promise<{ nextCursor?: string | undefined } & Record<string, unknown>>,
): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i += 1) {
    const result = await page(cursor);
    const items = result['resources'] ?? result['prompts'];
    count += Array.isArray(items) ? items.length : 0;
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return count;
}

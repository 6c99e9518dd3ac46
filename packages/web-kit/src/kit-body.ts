import type { Context } from 'hono';
import { KitRefusal } from './kit-refusal.js';

/**
 * The request's body as a JSON object; anything else is refused with its own code (415 for another content type, 400
 * `bad_json` naming the parse error or the non-object), so a client learns what to fix.
 */
export async function readJsonBody(c: Context): Promise<Record<string, unknown>> {
  // JSON only: a cross-site form cannot send it without a CORS preflight, so a cookie session cannot be ridden.
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    throw new KitRefusal(415, 'unsupported_media_type', 'send the body as JSON (content-type: application/json)');
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch (error) {
    throw new KitRefusal(400, 'bad_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new KitRefusal(400, 'bad_json', 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

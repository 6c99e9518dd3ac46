import { UriTemplate } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';

/**
 * Expands an RFC 6570 URI template (a server's resource template) from form values, with the SDK's expander.
 * Refuses, naming the template and the variable: a value for a variable the template does not have, a missing
 * value, a value that is not text, and a value the expanded URI does not give back (e.g. a `/` in a simple `{id}`
 * the server would read as a path).
 */
export function expandTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  let parsed: UriTemplate;
  try {
    parsed = new UriTemplate(template);
  } catch (error) {
    throw new HostError(
      'invalid_arguments',
      `resource template ${JSON.stringify(template)} is not valid: ${String(error)}`,
    );
  }
  const names = parsed.variableNames;
  for (const [name, value] of Object.entries(values)) {
    if (!names.includes(name)) {
      throw new HostError(
        'invalid_arguments',
        `resource template ${JSON.stringify(template)} has no variable "${name}" (it has: ${names.join(', ') || 'none'})`,
        { data: { template, variable: name } },
      );
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new HostError(
        'invalid_arguments',
        `the value of "${name}" for resource template ${JSON.stringify(template)} must be text`,
        { data: { template, variable: name } },
      );
    }
  }
  const missing = names.filter((name) => values[name] === undefined || values[name] === '');
  if (missing.length > 0) {
    throw new HostError(
      'invalid_arguments',
      `resource template ${JSON.stringify(template)} needs a value for ${missing.map((m) => `"${m}"`).join(', ')}`,
      { data: { template, missing } },
    );
  }
  const text = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  const uri = parsed.expand(text);
  const back = parsed.match(uri);
  for (const name of names) {
    const got = back?.[name];
    if (got !== text[name] && (typeof got !== 'string' || decodeURIComponent(got) !== text[name])) {
      throw new HostError(
        'invalid_arguments',
        `the value ${JSON.stringify(text[name])} of "${name}" does not fit resource template ` +
          `${JSON.stringify(template)}: the expanded URI ${JSON.stringify(uri)} does not match it`,
        { data: { template, variable: name } },
      );
    }
  }
  return uri;
}

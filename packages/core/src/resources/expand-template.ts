import { UriTemplate } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';

/**
 * Expands an RFC 6570 URI template (a server's resource template) from form values, with the SDK's expander.
 * Refuses, naming the template and the variable: a value for a variable the template does not have, a missing
 * value (query variables such as `{?q}` may be left out), a value that is not text, and a value the expanded URI reads
 * back differently (a reserved `{+path}` value whose `?` or `#` would start another part of the URI).
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
  // Variables of a query expression ({?a,b} or {&a}) may be left out: the expansion then omits them.
  const optional = new Set(
    [...template.matchAll(/\{[?&]([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((v) => v.replace(/[*:].*$/, ''))),
  );
  const missing = names.filter((name) => !optional.has(name) && (values[name] === undefined || values[name] === ''));
  if (missing.length > 0) {
    throw new HostError(
      'invalid_arguments',
      `resource template ${JSON.stringify(template)} needs a value for ${missing.map((m) => `"${m}"`).join(', ')}`,
      { data: { template, missing } },
    );
  }
  const text = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  const uri = parsed.expand(text);
  // The SDK's matcher does not read back every form (an omitted query variable): only a reading that disagrees counts.
  const back = parsed.match(uri) ?? {};
  const read = Object.keys(back).length === 0 ? [] : names.filter((n) => text[n] !== undefined);
  for (const name of read) {
    const got = back[name];
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

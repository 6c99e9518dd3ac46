import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { shapeProblem } from './json-shape.js';

type Schema = Record<string, unknown>;

/** One input of the launcher, read from a property of the tool's inputSchema. */
interface LauncherField {
  readonly name: string;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  readonly required: boolean;
  readonly description?: string;
  readonly options?: readonly unknown[];
  readonly defaultValue?: unknown;
  /** For a JSON field: the property's schema, from which its box gets a skeleton to fill in. */
  readonly schema?: Schema;
}

/**
 * A value of the schema's shape with empty leaves ("" for strings, 0 for numbers, false, the first enum value,
 * one item for arrays): what a JSON box shows as its placeholder, so an array of objects shows the fields each item
 * takes. Depth-limited, so a recursive schema ends.
 */
export function argsSkeleton(schema: unknown, depth = 0): unknown {
  const s = (schema ?? {}) as Schema;
  if (depth > 4) return null;
  if (Array.isArray(s['enum'])) return (s['enum'] as unknown[])[0] ?? null;
  if ('default' in s) return s['default'];
  switch (s['type']) {
    case 'object': {
      const properties = (s['properties'] ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, argsSkeleton(p, depth + 1)]));
    }
    case 'array':
      return s['items'] === undefined ? [] : [argsSkeleton(s['items'], depth + 1)];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return typeof s['properties'] === 'object' ? argsSkeleton({ ...s, type: 'object' }, depth) : null;
  }
}

/** The fields a person fills to call a tool by hand: simple types get inputs, anything else a JSON box. */
export function launcherFields(inputSchema: unknown): LauncherField[] {
  const schema = (inputSchema ?? {}) as Schema;
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  return Object.entries(properties).map(([name, p]) => {
    const type = p['type'];
    const kind: LauncherField['kind'] = Array.isArray(p['enum'])
      ? 'enum'
      : type === 'string' || type === 'number' || type === 'integer' || type === 'boolean'
        ? type
        : 'json';
    return {
      name,
      kind,
      required: required.has(name),
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      ...(kind === 'enum' ? { options: p['enum'] as unknown[] } : {}),
      ...('default' in p ? { defaultValue: p['default'] } : {}),
      ...(kind === 'json' ? { schema: p } : {}),
    };
  });
}

/**
 * The schema-aware check of a JSON box, said under it as the person types: not JSON (with the parser's reason), the
 * first place it departs from the property's schema (an array of objects names the item and the key), or that it
 * matches.
 */
function checkJsonBox(box: HTMLTextAreaElement, field: LauncherField): void {
  const output = box.closest('label')?.querySelector('output');
  if (output === null || output === undefined) return;
  const text = box.value.trim();
  if (text === '') {
    output.value = '';
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    output.value = t('console.launcher.bad_field_json', { field: field.name, error: (error as Error).message });
    return;
  }
  const problem = shapeProblem(field.schema, value);
  output.value =
    problem === undefined
      ? t('console.launcher.shape.ok', { field: field.name })
      : problem.kind === 'type'
        ? t('console.launcher.shape.type', { field: field.name, path: problem.path, type: problem.type })
        : problem.kind === 'required'
          ? t('console.launcher.shape.required', { field: field.name, path: problem.path, key: problem.key })
          : t('console.launcher.shape.enum', { field: field.name, path: problem.path, options: problem.options });
}

/** Renders the inputs; their `name`s are the property names, read back by `readLauncherArgs`. */
export function renderLauncherFields(fields: readonly LauncherField[]): TemplateResult {
  return html`${fields.map((field) => {
    const id = `arg-${field.name}`;
    const label = html`<span>${field.name}${field.required ? ' *' : ''}</span>
      ${field.description ? html`<small class="hint"> ${field.description}</small>` : nothing}`;
    switch (field.kind) {
      case 'boolean':
        return html`<label for=${id}
          ><input id=${id} name=${field.name} type="checkbox" ?checked=${field.defaultValue === true} /> ${label}</label
        >`;
      case 'enum':
        return html`<label for=${id}
          >${label}
          <select id=${id} name=${field.name}>
            ${field.required ? nothing : html`<option value="">${t('console.launcher.none')}</option>`}
            ${(field.options ?? []).map(
              (option, i) =>
                html`<option value=${String(i)} ?selected=${option === field.defaultValue}>${String(option)}</option>`,
            )}
          </select></label
        >`;
      case 'number':
      case 'integer':
        return html`<label for=${id}
          >${label}
          <input
            id=${id}
            name=${field.name}
            type="number"
            step=${field.kind === 'integer' ? '1' : 'any'}
            .value=${typeof field.defaultValue === 'number' ? String(field.defaultValue) : ''}
        /></label>`;
      case 'string':
        return html`<label for=${id}
          >${label}
          <input
            id=${id}
            name=${field.name}
            type="text"
            .value=${typeof field.defaultValue === 'string' ? field.defaultValue : ''}
        /></label>`;
      default:
        return html`<label for=${id}
          >${label} <small class="hint">${t('console.launcher.json_field')}</small>
          <textarea
            id=${id}
            name=${field.name}
            rows="4"
            spellcheck="false"
            aria-describedby=${`${id}-check`}
            placeholder=${JSON.stringify(argsSkeleton(field.schema), null, 2)}
            @input=${(event: Event) => checkJsonBox(event.currentTarget as HTMLTextAreaElement, field)}
          ></textarea>
          <span class="json-tools">
            <wa-button
              size="small"
              appearance="outlined"
              @click=${(event: Event) => {
                const box = (event.currentTarget as HTMLElement).closest('label')?.querySelector('textarea');
                if (box === null || box === undefined) return;
                box.value = JSON.stringify(argsSkeleton(field.schema), null, 2);
                checkJsonBox(box, field);
              }}
            >
              ${t('console.launcher.template')}
            </wa-button>
            <output id=${`${id}-check`} class="hint" aria-live="polite"></output>
          </span>
        </label>`;
    }
  })}`;
}

/** Reads the form back into arguments; a bad JSON box names its field. Empty optional inputs are left out. */
export function readLauncherArgs(form: HTMLFormElement, fields: readonly LauncherField[]): Record<string, unknown> {
  const raw = (form.elements.namedItem('raw-args') as HTMLTextAreaElement | null)?.value.trim() ?? '';
  if (raw !== '') {
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch (error) {
      throw new Error(t('console.launcher.bad_json', { error: (error as Error).message }));
    }
  }
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    const input = form.elements.namedItem(field.name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    if (field.kind === 'boolean') {
      args[field.name] = (input as HTMLInputElement).checked;
      continue;
    }
    const value = input.value;
    if (value === '') continue;
    if (field.kind === 'enum') args[field.name] = field.options?.[Number(value)];
    else if (field.kind === 'number' || field.kind === 'integer') args[field.name] = Number(value);
    else if (field.kind === 'string') args[field.name] = value;
    else {
      try {
        args[field.name] = JSON.parse(value);
      } catch (error) {
        throw new Error(t('console.launcher.bad_field_json', { field: field.name, error: (error as Error).message }));
      }
    }
  }
  return args;
}

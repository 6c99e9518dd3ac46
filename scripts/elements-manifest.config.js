// The Custom Elements Manifest of @airlock/elements (dist/custom-elements.json): what IDEs, Storybook and linters
// read to know each element's properties, attributes, events, CSS parts and CSS properties. Run from
// packages/elements by its build:manifest script. The analyzer reads the Lit decorators and the elements' JSDoc
// (@fires, @csspart, @cssprop); the plugin below fills in what it cannot see by itself, from the code:
//   - events: the name of an event is the `static eventName` of the Event class an element constructs
//     (`new ToolRetryEvent(...)` is `airlock-tool-retry`), not the variable it happened to be held in;
//   - CSS parts: every `part="…"` an element's templates set (its folder's modules), so a part no JSDoc names yet is
//     still listed; a JSDoc description wins where there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `part="a b"` in a Lit template (static names only). */
const PART = /\bpart="([^"$]+)"/g;
/** A CSS part name as the spec allows it (an ident). */
const PART_NAME = /^[A-Za-z_-][\w-]*$/;

function eventNamesByClass(modules) {
  const names = new Map();
  for (const mod of modules) {
    for (const declaration of mod.declarations ?? []) {
      // The name an Event class dispatches under: its static `eventName` or `type`.
      for (const field of declaration.members ?? []) {
        if (!field.static || (field.name !== 'eventName' && field.name !== 'type')) continue;
        const value = typeof field.default === 'string' ? field.default.replace(/^['"`]|['"`]$/g, '') : '';
        if (declaration.kind === 'class' && value.startsWith('airlock-')) names.set(declaration.name, value);
      }
    }
  }
  return names;
}

/** The sources of an element: its folder's modules, and the shared tokens when the folder uses them. */
function elementSources(modulePath) {
  const folder = dirname(modulePath);
  const texts = readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(folder, file), 'utf8'));
  const tokens = join(dirname(folder), 'shared', 'tokens.ts');
  return texts.some((text) => text.includes('shared/tokens.js')) ? [...texts, readFileSync(tokens, 'utf8')] : texts;
}

function templateParts(sources) {
  const parts = new Set();
  for (const text of sources) {
    for (const match of text.matchAll(PART)) {
      for (const name of match[1].split(/\s+/)) if (PART_NAME.test(name)) parts.add(name);
    }
  }
  return parts;
}

/** `var(--airlock-…)`: the custom properties an element reads (the --_private ones are its own). */
const CSS_VAR = /var\((--airlock-[a-z0-9-]+)/g;

/**
 * Documented CSS properties, one entry per name (a JSDoc tag may name several: `--a, --b - what they do`), then every
 * `--airlock-*` property the element's styles read.
 */
function cssProperties(documented, sources) {
  const properties = new Map();
  for (const property of documented ?? []) {
    if (!property.name.endsWith(',')) {
      properties.set(property.name, property);
      continue;
    }
    const [names, ...rest] = `${property.name} ${property.description ?? ''}`.split(' - ');
    const description = rest.join(' - ');
    for (const name of names.match(/--[\w-]+/g) ?? []) properties.set(name, { name, description });
  }
  for (const text of sources) {
    for (const match of text.matchAll(CSS_VAR))
      if (!properties.has(match[1])) properties.set(match[1], { name: match[1] });
  }
  return [...properties.values()];
}

/** The package ships dist/*.js, not src/*.ts: every module path and reference points at what ships. */
function shippedPaths(node) {
  if (Array.isArray(node)) {
    for (const item of node) shippedPaths(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'path' || key === 'module') && typeof value === 'string') {
      node[key] = value.replace(/^\/?src\/(.*)\.ts$/, 'dist/$1.js');
    } else shippedPaths(value);
  }
}

/** Events and parts completed from the code, as the header says. */
function completeFromCode() {
  const constructed = new Map(); // class name → Event classes it constructs
  return {
    name: 'airlock-complete-from-code',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || node.name === undefined) return;
      const found = new Set();
      const visit = (child) => {
        if (ts.isNewExpression(child) && ts.isIdentifier(child.expression) && /Event$/.test(child.expression.text)) {
          found.add(child.expression.text);
        }
        ts.forEachChild(child, visit);
      };
      ts.forEachChild(node, visit);
      constructed.set(node.name.text, found);
    },
    packageLinkPhase({ customElementsManifest }) {
      const modules = customElementsManifest.modules;
      const eventNames = eventNamesByClass(modules);
      for (const mod of modules) {
        for (const element of mod.declarations ?? []) {
          if (!element.customElement) continue;
          const events = new Map();
          // Documented (@fires) first: their descriptions; then what the code constructs, named by the class.
          for (const event of element.events ?? []) {
            const byType = event.type === undefined ? undefined : eventNames.get(event.type.text);
            const name = byType ?? event.name;
            if (name === undefined || !name.startsWith('airlock-')) continue;
            // "@fires name - {@link SomeEvent} …": the class is the event's type.
            const linked = /\{@link (\w+Event)\}/.exec(event.description ?? '')?.[1];
            const type = event.type ?? (linked === undefined ? undefined : { text: linked });
            events.set(name, { ...events.get(name), ...event, name, ...(type === undefined ? {} : { type }) });
          }
          for (const className of constructed.get(element.name) ?? []) {
            const name = eventNames.get(className);
            if (name === undefined) continue;
            events.set(name, { ...events.get(name), name, type: { text: className } });
          }
          element.events = [...events.values()];
          const parts = new Map((element.cssParts ?? []).filter((p) => PART_NAME.test(p.name)).map((p) => [p.name, p]));
          const sources = elementSources(mod.path);
          for (const name of templateParts(sources)) if (!parts.has(name)) parts.set(name, { name });
          element.cssParts = [...parts.values()].sort((a, b) => a.name.localeCompare(b.name));
          element.cssProperties = cssProperties(element.cssProperties, sources);
        }
      }
      shippedPaths(customElementsManifest);
    },
  };
}

export default {
  globs: ['src/**/*.ts'],
  exclude: ['src/**/*.test.ts', 'src/testing/**'],
  outdir: 'dist',
  litelement: true,
  plugins: [completeFromCode()],
};

import type { Locale } from '@airlock/core/i18n';
import { formatConsoleMessage } from './console-messages.js';
import type { ConsoleMessageKey } from './console-messages.js';

/** The page's language: Brazilian Portuguese when the browser prefers Portuguese, else English. */
export const locale: Locale = /^pt\b/i.test(navigator.language) ? 'pt-BR' : 'en-US';
// The elements read the nearest `lang`, so they speak the page's language too.
document.documentElement.lang = locale;

/** A message from the console's own catalog, in the page's language. */
export function t(key: ConsoleMessageKey, params?: Readonly<Record<string, string | number>>): string {
  return formatConsoleMessage(locale, key, params);
}

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

const plurals = new Intl.PluralRules(locale);

/** Keys that come in plural forms: `<base>.one` and `<base>.other` (the forms en-US and pt-BR use). */
type PluralBase = 'console.count.tools' | 'console.count.servers' | 'console.count.events';

/** A count in words, in the plural form the page's language picks for it (Intl.PluralRules): "1 tool", "2 tools". */
export function plural(base: PluralBase, count: number): string {
  const form = plurals.select(count) === 'one' ? 'one' : 'other';
  return t(`${base}.${form}`, { count: new Intl.NumberFormat(locale).format(count) });
}

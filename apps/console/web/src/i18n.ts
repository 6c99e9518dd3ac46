import { formatMessage } from '@airlock/core/i18n';
import type { Locale, MessageKey } from '@airlock/core/i18n';

/** The page's language: Brazilian Portuguese when the browser prefers Portuguese, else English. */
export const locale: Locale = /^pt\b/i.test(navigator.language) ? 'pt-BR' : 'en-US';
// The elements read the nearest `lang`, so they speak the page's language too.
document.documentElement.lang = locale;

/** A console message from the shared catalog, in the page's language. */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return formatMessage(locale, key, params);
}

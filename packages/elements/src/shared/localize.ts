import { formatMessage } from '@airlock/core/i18n';
import type { Locale, MessageKey } from '@airlock/core/i18n';

/**
 * The locale an element speaks: its own `lang` attribute, else the nearest ancestor's (the page's `<html lang>`),
 * else en-US. Every visible string comes from the one catalog in @airlock/core.
 */
export function elementLocale(element: Element): Locale {
  const lang = element.closest('[lang]')?.getAttribute('lang') ?? '';
  return /^pt(-BR)?$/i.test(lang) ? 'pt-BR' : 'en-US';
}

/** A message of the catalog in the element's locale. */
export function msg(element: Element, key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return formatMessage(elementLocale(element), key, params);
}

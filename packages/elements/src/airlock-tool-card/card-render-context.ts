import type { MessageKey } from '@airlock/core/i18n';

/**
 * What the render helpers need from the card: its strings, number and size formats, the sanitised-markdown cache,
 * which texts the user expanded, and the actions (toggle, copy, open an image). The card builds one per render.
 */
export interface CardRenderContext {
  t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string;
  number(value: number): string;
  bytes(value: number): string;
  /** Sanitised HTML for a markdown text (cached per result). */
  markdown(text: string): string;
  isExpanded(key: string): boolean;
  toggle(key: string): void;
  /** True right after `key`'s value reached the clipboard: its button reads "Copied". */
  copied(key: string): boolean;
  copy(key: string, text: string): void;
  openImage(src: string, alt: string): void;
  /** The user asked to open a resource link: the host is told (airlock-tool-resource-open). */
  openResource(uri: string): void;
  /** The whole text of a block the host cut (by 0-based block index), once the host gave it. */
  wholeText(block: number): string | undefined;
  /** True while the whole text of a cut block is asked for and has not come yet (nor failed). */
  loadingAll(block: number): boolean;
  /** Why the host could not give a cut block's whole text, when it could not: "show all" is offered again. */
  showAllError(block: number): string | undefined;
  /** The user asked for the whole text of a cut block: the host is told (airlock-tool-show-all). */
  showAll(block: number): void;
}

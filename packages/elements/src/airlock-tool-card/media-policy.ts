/** Image types the card shows inline. Anything else (SVG included) is described, never rendered. */
export const SHOWN_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Images larger than this show as a small thumbnail with "open full size" (DESIGN.md, Bounds). */
export const LARGE_IMAGE_BYTES = 500 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const AUDIO_TYPE = /^audio\/[a-z0-9][a-z0-9.+-]*$/i;
const ICON_SRC = /^(?:data:image\/[a-z0-9.+-]+[;,]|https:\/\/)/i;

/**
 * The icon URL the card may load: an inline `data:image/` URL or an https URL. http, javascript:, file:, relative
 * URLs and the rest give undefined, and the card shows its own glyph.
 */
export function safeIconSrc(src: unknown): string | undefined {
  return typeof src === 'string' && ICON_SRC.test(src) ? src : undefined;
}

/** A `data:` URL for an image of a shown type with well-formed base64 data; undefined for anything else. */
export function imageDataUrl(mimeType: string | undefined, data: string | undefined): string | undefined {
  const type = mimeType?.trim().toLowerCase() ?? '';
  if (data === undefined || !SHOWN_IMAGE_TYPES.includes(type) || !BASE64.test(data)) return undefined;
  return `data:${type};base64,${data}`;
}

/** A `data:` URL for `audio/*` with well-formed base64 data; undefined for anything else. */
export function audioDataUrl(mimeType: string | undefined, data: string | undefined): string | undefined {
  const type = mimeType?.trim() ?? '';
  if (data === undefined || !AUDIO_TYPE.test(type) || !BASE64.test(data)) return undefined;
  return `data:${type.toLowerCase()};base64,${data}`;
}

/** The decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** True when an image is shown as a thumbnail first. */
export function isLargeImage(bytes: number): boolean {
  return bytes > LARGE_IMAGE_BYTES;
}

/** A size for people: "820 B", "12.5 KB", "5 MB" (1 KB = 1,024 bytes), in the locale's number format. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'] as const;
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return `${number} ${units[unit]}`;
}

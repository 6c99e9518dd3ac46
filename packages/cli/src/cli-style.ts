/**
 * Colour for what a reader scans for: a call's state, a tool's risk, a server's state. On only where it helps: a
 * terminal, not a pipe or a file, and never when the user said NO_COLOR (https://no-color.org); FORCE_COLOR turns it
 * on for a pipe (CI logs that render ANSI) or, as "0", off. The words stay the same either way: colour is never the
 * only carrier of meaning.
 */

/** The escapes this CLI uses (SGR: the colour, then its reset). */
const SGR = {
  red: ['\u001b[31m', '\u001b[39m'],
  green: ['\u001b[32m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  cyan: ['\u001b[36m', '\u001b[39m'],
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
} as const;

type Colour = keyof typeof SGR;

/** Whether text written to `stream` gets colour, from the stream and the environment. */
export function colourEnabled(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return (stream as NodeJS.WriteStream).isTTY === true && env['TERM'] !== 'dumb';
}

/** Paints by meaning; with colour off every function returns its text unchanged. */
export interface Style {
  readonly enabled: boolean;
  /** A call's state or outcome: success green, error and denial red, cancelled yellow, in flight cyan. */
  state(text: string, state: string): string;
  /** A risk tier: low green, medium yellow, high red. */
  risk(text: string, tier: string): string;
  /** A server's state: ready green, failed red, anything on its way yellow, disabled dim. */
  server(text: string, state: string): string;
  /** What matters on the line (a tool's name, an id). */
  strong(text: string): string;
  /** What is there for reference (times, hints). */
  dim(text: string): string;
}

const STATE: Record<string, Colour> = {
  success: 'green',
  allowed: 'green',
  allow: 'green',
  error: 'red',
  denied: 'red',
  deny: 'red',
  timeout: 'red',
  cancelled: 'yellow',
  ask: 'yellow',
  pending: 'cyan',
  running: 'cyan',
};
const RISK: Record<string, Colour> = { low: 'green', medium: 'yellow', high: 'red' };
const SERVER: Record<string, Colour> = { ready: 'green', failed: 'red', disabled: 'dim' };

/** The style for one output stream. */
export function createStyle(enabled: boolean): Style {
  const paint = (text: string, colour: Colour | undefined) =>
    enabled && colour !== undefined ? `${SGR[colour][0]}${text}${SGR[colour][1]}` : text;
  return {
    enabled,
    state: (text, state) => paint(text, STATE[state]),
    risk: (text, tier) => paint(text, RISK[tier]),
    server: (text, state) => paint(text, SERVER[state] ?? 'yellow'),
    strong: (text) => paint(text, 'bold'),
    dim: (text) => paint(text, 'dim'),
  };
}

/** No colour: what tests and machine output use. */
export const PLAIN: Style = createStyle(false);

/** The style for `stream` in this environment. */
export function styleFor(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): Style {
  return createStyle(colourEnabled(stream, env));
}

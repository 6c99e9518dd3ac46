const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** How many bytes of an oversize line are kept to tell what it was (its id, its method). */
export const OVERSIZE_HEAD_BYTES = 4_096;

/** A line that passed the cap, as {@link LineReader} reports it once, the moment it passes. */
export interface OversizeLine {
  /** Bytes of the line read so far (past the cap by at most one chunk). */
  readonly bytes: number;
  /** Its first {@link OVERSIZE_HEAD_BYTES} bytes, decoded as UTF-8. */
  readonly head: string;
}

/** What {@link LineReader} is built with. */
export interface LineReaderConfig {
  /** The largest line accepted, in bytes, newline excluded. */
  readonly maxLineBytes: number;
  /** A whole line, decoded as UTF-8, without its newline or a carriage return before it. */
  readonly onLine: (line: string) => void;
  /** The current line passed the cap: it is dropped, and everything up to its newline is skipped unread. */
  readonly onOversize: (line: OversizeLine) => void;
}

/**
 * Splits a byte stream (a stdio server's stdout) into newline-delimited messages, and refuses a line as soon as it
 * passes the cap, while it still streams.
 *
 * The SDK's `ReadBuffer` concatenates every chunk onto one growing buffer (quadratic: a 50 MB line in 64 KB chunks
 * copies about 20 GB, and stalled a host's event loop for 913 ms) and looks at the size only against the whole
 * buffer. Here a line's chunks wait in a list and are joined once, when its newline arrives; the bytes of the current
 * line are counted as they come, and the chunk that takes a line past the cap drops it: the line is never held whole,
 * and what follows up to its newline is skipped as it is read, so the work per chunk stays a newline search.
 */
export class LineReader {
  readonly #config: LineReaderConfig;
  #parts: Buffer[] = [];
  #bytes = 0;
  #skipping = false;

  constructor(config: LineReaderConfig) {
    if (!Number.isInteger(config.maxLineBytes) || config.maxLineBytes < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${config.maxLineBytes}`);
    }
    this.#config = config;
  }

  /** Takes the next chunk of the stream; calls `onLine` for every line it completes. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        this.#hold(chunk, start, chunk.length);
        return;
      }
      if (this.#skipping) {
        this.#skipping = false;
      } else if (this.#bytes + end - start > this.#config.maxLineBytes) {
        this.#refuse(chunk.subarray(start, end), false);
      } else {
        this.#config.onLine(this.#line(chunk, start, end));
      }
      this.#parts = [];
      this.#bytes = 0;
      start = end + 1;
    }
  }

  /** Forgets a partial line (the stream ended or was dropped). */
  clear(): void {
    this.#parts = [];
    this.#bytes = 0;
    this.#skipping = false;
  }

  /** Keeps a piece of a line that has no newline yet, unless the line is being skipped or passes the cap with it. */
  #hold(chunk: Buffer, start: number, end: number): void {
    if (this.#skipping) return;
    const piece = chunk.subarray(start, end);
    if (this.#bytes + piece.length > this.#config.maxLineBytes) {
      this.#refuse(piece, true);
      return;
    }
    this.#parts.push(piece);
    this.#bytes += piece.length;
  }

  #refuse(last: Buffer, skipRest: boolean): void {
    const bytes = this.#bytes + last.length;
    const head = this.#head(last);
    this.#parts = [];
    this.#bytes = 0;
    this.#skipping = skipRest;
    this.#config.onOversize({ bytes, head });
  }

  #head(last: Buffer): string {
    const pieces: Buffer[] = [];
    let length = 0;
    for (const piece of [...this.#parts, last]) {
      if (length >= OVERSIZE_HEAD_BYTES) break;
      pieces.push(piece);
      length += piece.length;
    }
    return Buffer.concat(pieces, Math.min(length, OVERSIZE_HEAD_BYTES)).toString('utf8');
  }

  #line(chunk: Buffer, start: number, end: number): string {
    // A CRLF line ends one byte earlier.
    const stop = end > start && chunk[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
    if (this.#parts.length === 0) return chunk.toString('utf8', start, stop);
    const whole = Buffer.concat([...this.#parts, chunk.subarray(start, end)], this.#bytes + end - start);
    const length = whole.length > 0 && whole[whole.length - 1] === CARRIAGE_RETURN ? whole.length - 1 : whole.length;
    return whole.toString('utf8', 0, length);
  }
}

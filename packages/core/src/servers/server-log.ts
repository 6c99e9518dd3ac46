import type { Client } from '@modelcontextprotocol/client';

/**
 * One line a server left: a line of its stderr (stdio servers), or a log notification (`notifications/message`) it
 * sent. The text is the server's own, untrusted: control characters are neutralised before it is kept, and a surface
 * shows it as text.
 */
export interface ServerLogLine {
  /** Numbered from 1 for each connection, so a reader asks for what came after the last line it saw. */
  readonly seq: number;
  /** When the host received it (the host's clock), in milliseconds. */
  readonly at: number;
  readonly source: 'stderr' | 'log';
  /** A log notification's level (`debug` … `emergency`) as the server gave it. */
  readonly level?: string;
  /** A log notification's `logger` name. */
  readonly logger?: string;
  readonly text: string;
}

/** What `follow` reads: a stream of bytes (a child process's stderr). */
export interface LogStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** How much of a server's output a connection keeps: the newest lines, at most this many and this many characters. */
export interface ServerLogLimits {
  readonly maxLines: number;
  readonly maxChars: number;
}

export const DEFAULT_SERVER_LOG_LIMITS: ServerLogLimits = { maxLines: 200, maxChars: 64 * 1024 };

/** The longest line kept whole; a longer one keeps its head and says how much was cut. */
const MAX_LINE_CHARS = 4_000;

/**
 * C0 and C1 control characters but tab, DEL, and the bidirectional overrides and isolates, which could make a line
 * read as something else in a terminal (an ANSI escape that clears the screen) or on a page (text reversed).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control character shown as its code (`\x1b`, `\u202e`), so it can be read but not obey. */
export function neutraliseControls(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * The newest lines of one server connection's stderr and log notifications, in a bounded ring (200 lines, 64 KiB by
 * default): a chatty server costs a fixed amount of memory whatever it writes. The lines outlive reconnects of the
 * same connection, so a server that keeps failing to start still shows what it said each time. Airlock declares no
 * logging capability and never sends `logging/setLevel`; it keeps what a server sends anyway.
 */
export class ServerLog {
  readonly #limits: ServerLogLimits;
  readonly #now: () => number;
  readonly #lines: ServerLogLine[] = [];
  readonly #listeners = new Set<(line: ServerLogLine) => void>();
  #chars = 0;
  #seq = 0;

  constructor(options: {
    readonly now: () => number;
    readonly limits?: Partial<ServerLogLimits>;
    /** Told of each line as it is kept (the host's `server.log` event). */
    readonly onLine?: (line: ServerLogLine) => void;
  }) {
    this.#now = options.now;
    if (options.onLine !== undefined) this.#listeners.add(options.onLine);
    this.#limits = { ...DEFAULT_SERVER_LOG_LIMITS, ...options.limits };
  }

  /** The lines kept, oldest first; with `after`, only those numbered after it. */
  lines(after = 0): ServerLogLine[] {
    return this.#lines.filter((line) => line.seq > after);
  }

  /** Calls `listener` with each new line; returns what stops it. */
  onLine(listener: (line: ServerLogLine) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Keeps every line a process writes to `stream` (a stdio server's stderr), a partial last line when it ends. */
  follow(stream: LogStream | null): void {
    if (stream === null) return;
    const decoder = new TextDecoder();
    let partial = '';
    const take = (text: string) => {
      const parts = (partial + text).split(/\r?\n/);
      partial = parts.pop() ?? '';
      // A process that never ends its line still cannot grow the buffer past one kept line.
      if (partial.length > MAX_LINE_CHARS) {
        parts.push(partial);
        partial = '';
      }
      for (const part of parts) if (part !== '') this.add({ source: 'stderr', text: part });
    };
    stream.on('data', (chunk: Uint8Array) => take(decoder.decode(chunk, { stream: true })));
    stream.on('end', () => {
      take(decoder.decode());
      if (partial !== '') this.add({ source: 'stderr', text: partial });
      partial = '';
    });
  }

  /** Keeps the log notifications a client receives (the one handler for `notifications/message`). */
  listen(client: Client): void {
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      const text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
      this.add({ source: 'log', level, ...(logger === undefined ? {} : { logger }), text });
    });
  }

  /** Adds one line (neutralised, cut to a bounded length) and drops the oldest past the limits. */
  add(line: Omit<ServerLogLine, 'seq' | 'at'>): void {
    const clean = neutraliseControls(line.text);
    const text =
      clean.length > MAX_LINE_CHARS
        ? `${clean.slice(0, MAX_LINE_CHARS)}… (${clean.length - MAX_LINE_CHARS} more characters)`
        : clean;
    const kept: ServerLogLine = {
      ...line,
      ...(line.logger === undefined ? {} : { logger: neutraliseControls(line.logger).slice(0, 200) }),
      ...(line.level === undefined ? {} : { level: neutraliseControls(line.level).slice(0, 20) }),
      seq: ++this.#seq,
      at: this.#now(),
      text,
    };
    this.#lines.push(kept);
    this.#chars += text.length;
    while (
      this.#lines.length > this.#limits.maxLines ||
      (this.#chars > this.#limits.maxChars && this.#lines.length > 1)
    ) {
      this.#chars -= this.#lines.shift()?.text.length ?? 0;
    }
    for (const listener of this.#listeners) listener(kept);
  }
}

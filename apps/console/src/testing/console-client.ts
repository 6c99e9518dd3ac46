import { request as httpRequest } from 'node:http';
import type { ElicitationRequest, InvocationRecord, PermissionRequest, ScreenPayload } from '@airlock/core';

/**
 * A small client of a running console for tests: sign-in with the session cookie carried by hand, JSON requests, and
 * a tab's event stream read as server-sent events. Not used by the console itself.
 */

/** The cookie the console keeps its session in. */
export const CONSOLE_SESSION_COOKIE = 'airlock_session';

/** One server-sent event as the console sends it: the event name and its data, parsed from JSON. */
export interface ConsoleEvent {
  readonly event: string;
  readonly data: unknown;
}

/** The data of an `invocation` event: the call as it stands, and its screen payload once it has ended. */
export interface InvocationEventData {
  readonly invocation: InvocationRecord;
  readonly result?: ScreenPayload;
}

/** An answer of the API: its status, its body parsed as JSON (the raw text when it is not JSON), its headers. */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
}

/** The shape of every error the API answers with. */
export interface ApiErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly [key: string]: unknown };
}

async function answerOf(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) body = JSON.parse(text);
  return { status: response.status, body, headers: response.headers };
}

/**
 * Sends one request to the console with `fetch`. A plain-object `body` is sent as JSON (content-type
 * application/json); a string is sent as it is, with whatever content-type `headers` name.
 */
export async function consoleRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(new URL(path, baseUrl), { method, headers, ...(body === undefined ? {} : { body }) });
  return answerOf(response);
}

/**
 * Sends one request with `node:http` over a connection of its own, so headers `fetch` refuses to set (Host, Origin)
 * can be chosen, and a body the console refuses early (over its size limit) cannot spoil a pooled connection. The
 * body, when given, is sent as JSON.
 */
export function rawConsoleRequest(
  baseUrl: string,
  options: { method: string; path: string; headers: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: unknown }> {
  const url = new URL(options.path, baseUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method,
        agent: false,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const json = (res.headers['content-type'] ?? '').includes('application/json');
          try {
            resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(text) : text });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A signed-in session of one user: every request carries its cookie. */
export class ConsoleClient {
  private constructor(
    readonly baseUrl: string,
    /** The `airlock_session=<id>` pair, as sent in the Cookie header. */
    readonly cookie: string,
    readonly userId: string,
    readonly workspaceId: string,
  ) {}

  /**
   * Signs in with POST /api/session (`{ userId }` in local mode, `{ token }` in token mode) and keeps the session
   * cookie from `set-cookie`. Throws with the console's answer when sign-in fails.
   */
  /** The same browser's session sent to another console instance (a load balancer without sticky sessions). */
  at(baseUrl: string): ConsoleClient {
    return new ConsoleClient(baseUrl, this.cookie, this.userId, this.workspaceId);
  }

  static async signIn(
    baseUrl: string,
    body: { userId?: string; workspaceId?: string; token?: string },
  ): Promise<ConsoleClient> {
    const response = await fetch(new URL('/api/session', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await answerOf(response);
    if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .find((pair) => pair.startsWith(`${CONSOLE_SESSION_COOKIE}=`));
    if (cookie === undefined) throw new Error('sign-in set no session cookie');
    const session = answer.body as { userId: string; workspaceId: string };
    return new ConsoleClient(baseUrl, cookie, session.userId, session.workspaceId);
  }

  /** A request with this session's cookie; `body` as in {@link consoleRequest}. */
  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
    return consoleRequest(this.baseUrl, method, path, {
      ...(body === undefined ? {} : { body }),
      headers: { cookie: this.cookie, ...headers },
    });
  }

  get(path: string): Promise<ApiAnswer> {
    return this.request('GET', path);
  }

  post(path: string, body: unknown = {}): Promise<ApiAnswer> {
    return this.request('POST', path, body);
  }

  delete(path: string): Promise<ApiAnswer> {
    return this.request('DELETE', path);
  }

  /** Starts a call by hand (POST /api/invocations) and returns its id; throws unless the console answers 202. */
  async startCall(tool: string, args: Record<string, unknown>): Promise<string> {
    const answer = await this.post('/api/invocations', { tool, args });
    if (answer.status !== 202)
      throw new Error(`starting ${tool} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return (answer.body as { invocationId: string }).invocationId;
  }

  /** Opens a tab's event stream (GET /api/events) and resolves once its `state` snapshot has arrived. */
  openEvents(conversation = 'main'): Promise<ConsoleEventStream> {
    return ConsoleEventStream.open(this, conversation);
  }
}

interface Waiter {
  readonly match: (event: ConsoleEvent) => boolean;
  readonly resolve: (event: ConsoleEvent) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One tab's event stream, read with `fetch` and parsed as server-sent events. Every event is kept in `events` in the
 * order it came; {@link ConsoleEventStream.waitFor} resolves with the first event (received before or after the
 * call) that matches, so a test waits for what happened instead of sleeping.
 */
export class ConsoleEventStream {
  /** Every event received so far, the `state` snapshot first. */
  readonly events: ConsoleEvent[] = [];
  readonly #controller = new AbortController();
  readonly #waiters = new Set<Waiter>();
  #ended: Error | undefined;
  #reading: Promise<void> = Promise.resolve();

  private constructor() {}

  /** Opens GET /api/events for `client` and resolves once the `state` snapshot is in. */
  static async open(client: ConsoleClient, conversation = 'main'): Promise<ConsoleEventStream> {
    const stream = new ConsoleEventStream();
    const response = await fetch(
      new URL(`/api/events?conversation=${encodeURIComponent(conversation)}`, client.baseUrl),
      {
        headers: { cookie: client.cookie, accept: 'text/event-stream' },
        signal: stream.#controller.signal,
      },
    );
    if (response.status !== 200 || response.body === null) {
      throw new Error(`the event stream did not open: ${response.status} ${await response.text()}`);
    }
    stream.#reading = stream.#read(response.body);
    await stream.waitFor((e) => e.event === 'state', 'the state snapshot');
    return stream;
  }

  /** The snapshot the tab opened with (the data of the first `state` event). */
  get state(): Record<string, unknown> {
    return this.events[0]?.data as Record<string, unknown>;
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          this.#dispatch(block);
        }
      }
      this.#end(new Error('the event stream ended'));
    } catch (error) {
      this.#end(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #dispatch(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    const received: ConsoleEvent = { event, data: parsed };
    this.events.push(received);
    for (const waiter of this.#waiters) {
      if (waiter.match(received)) {
        this.#waiters.delete(waiter);
        waiter.resolve(received);
      }
    }
  }

  #end(error: Error): void {
    this.#ended ??= error;
    for (const waiter of this.#waiters) waiter.reject(new Error(`${error.message} while waiting`));
    this.#waiters.clear();
  }

  /**
   * Resolves with the first event, already received or still to come, that matches. Rejects when the stream ends
   * first, or after `timeoutMs` as a guard against a hung test (the message names what was awaited and what came).
   */
  waitFor(match: (event: ConsoleEvent) => boolean, description: string, timeoutMs = 15_000): Promise<ConsoleEvent> {
    const found = this.events.find(match);
    if (found !== undefined) return Promise.resolve(found);
    if (this.#ended !== undefined) {
      return Promise.reject(new Error(`${this.#ended.message} before ${description} arrived`));
    }
    return new Promise<ConsoleEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        const seen = this.events.map((e) => e.event).join(', ');
        reject(new Error(`${description} did not arrive within ${timeoutMs} ms; events seen: ${seen}`));
      }, timeoutMs);
      timer.unref();
      const waiter: Waiter = {
        match,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(new Error(`${error.message} for ${description}`));
        },
      };
      this.#waiters.add(waiter);
    });
  }

  /** Waits for the permission question of one call (`permission.requested`). */
  async waitForPermission(invocationId: string): Promise<PermissionRequest> {
    const event = await this.waitFor(
      (e) => e.event === 'permission.requested' && (e.data as PermissionRequest).invocationId === invocationId,
      `the permission question of ${invocationId}`,
    );
    return event.data as PermissionRequest;
  }

  /** Waits for an `invocation` event of one call whose state passes `state` (a state name or a test). */
  async waitForInvocation(
    invocationId: string,
    state: InvocationRecord['state'] | ((s: InvocationRecord['state']) => boolean),
  ): Promise<InvocationEventData> {
    const test = typeof state === 'function' ? state : (s: InvocationRecord['state']) => s === state;
    const event = await this.waitFor(
      (e) => {
        if (e.event !== 'invocation') return false;
        const { invocation } = e.data as InvocationEventData;
        return invocation.id === invocationId && test(invocation.state);
      },
      `an invocation event of ${invocationId} in state ${typeof state === 'function' ? '(matching)' : state}`,
    );
    return event.data as InvocationEventData;
  }

  /** Waits for the end of a call: its `invocation` event in success, error or cancelled, with its result. */
  waitForEnd(invocationId: string): Promise<InvocationEventData> {
    return this.waitForInvocation(invocationId, (s) => s === 'success' || s === 'error' || s === 'cancelled');
  }

  /** Waits for a server's question during one call (`elicitation.requested`). */
  async waitForElicitation(invocationId: string): Promise<ElicitationRequest> {
    const event = await this.waitFor(
      (e) => e.event === 'elicitation.requested' && (e.data as ElicitationRequest).invocationId === invocationId,
      `the question asked during ${invocationId}`,
    );
    return event.data as ElicitationRequest;
  }

  /** Closes the stream (the tab goes away) and waits for the reader to stop. */
  async close(): Promise<void> {
    this.#controller.abort();
    await this.#reading;
  }
}

/** The text blocks of a result's screen payload, joined. */
export function screenText(result: ScreenPayload | undefined): string {
  return (result?.blocks ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SignInRequest } from '@airlock/core';

/** The path the authorization server sends the browser back to. */
const CALLBACK_PATH = '/callback';

/**
 * The CLI's side of a sign-in (RFC 8252, loopback redirect): a one-use HTTP listener on 127.0.0.1 that the
 * authorization server sends the browser back to. `authorize` opens the sign-in page in the system browser
 * (`$BROWSER`, else xdg-open or open) and always prints the URL too, for a machine with no browser; it resolves with
 * the redirect URL once the browser comes back with this flow's `state`.
 */
export class LoopbackRedirect {
  readonly #server: Server;
  #url: string | undefined;
  #waiting: { state: string; resolve: (url: string) => void } | undefined;

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Listens on a free loopback port. */
  static async start(): Promise<LoopbackRedirect> {
    const server = createServer();
    const loopback = new LoopbackRedirect(server);
    server.on('request', (request, response) => loopback.#answer(request.url ?? '/', response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    loopback.#url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`;
    return loopback;
  }

  /** The redirect URL to register and send: `http://127.0.0.1:PORT/callback`. */
  get url(): string {
    if (this.#url === undefined) throw new Error('the loopback redirect is not listening');
    return this.#url;
  }

  /** `Surface.authorize` for the terminal. */
  authorize(request: SignInRequest, signal: AbortSignal, say: (line: string) => void): Promise<string> {
    const state = request.authorizationUrl.searchParams.get('state') ?? '';
    return new Promise<string>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('the sign-in was cancelled')), { once: true });
      this.#waiting = { state, resolve };
      say(
        `Sign in to ${request.serverId} in your browser. If it does not open, open this address:\n  ${request.authorizationUrl.href}\n`,
      );
      // Only a web address is handed to the system's opener (a remote server chose it).
      const { protocol } = request.authorizationUrl;
      if (protocol === 'https:' || protocol === 'http:') openBrowser(request.authorizationUrl.href);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #answer(path: string, response: import('node:http').ServerResponse): void {
    const back = new URL(path, this.url);
    const waiting = this.#waiting;
    const page = (status: number, text: string) => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end(`${text}\n`);
    };
    if (back.pathname !== CALLBACK_PATH || waiting === undefined) return page(404, 'No sign-in is waiting here.');
    if (back.searchParams.get('state') !== waiting.state) {
      return page(400, 'This is not the sign-in the airlock command is waiting for.');
    }
    this.#waiting = undefined;
    page(200, 'Airlock received the sign-in. You can close this tab and go back to the terminal.');
    waiting.resolve(back.href);
  }
}

/** Opens a URL in the system browser when there is one; the URL is printed anyway, so a failure here is silent. */
function openBrowser(url: string): void {
  const browser = process.env['BROWSER'];
  const command =
    browser ?? (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser: the printed address is the way.
  }
}

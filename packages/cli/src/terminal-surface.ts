import type { PermissionDecision, PermissionRequest, Surface } from '@airlock/core';

/** A surface that answers without asking: `--allow` (the user consented on the command line) or fail closed. */
export class FixedSurface implements Surface {
  constructor(
    private readonly decision: PermissionDecision,
    private readonly onAsk: (request: PermissionRequest) => void = () => undefined,
  ) {}

  askPermission(request: PermissionRequest): Promise<PermissionDecision> {
    this.onAsk(request);
    return Promise.resolve(this.decision);
  }
}

/**
 * Asks at the terminal: the tool, its server and trust, its annotations and the full arguments, then a key.
 * `y` allows once; `n`, Enter, Esc or Ctrl-C deny once (the cautious default).
 */
export class TerminalSurface implements Surface {
  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WriteStream,
  ) {}

  askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const server =
      request.server === null
        ? 'this host'
        : `${request.server.id} (${request.server.trusted ? 'trusted' : 'untrusted'})`;
    const hints = Object.entries(request.tool.annotations ?? {})
      .filter(([key]) => key.endsWith('Hint'))
      .map(([key, value]) => `${key}=${String(value)}`);
    this.output.write(
      [
        '',
        `Allow this tool to run? ${request.tool.displayName} · from ${server}`,
        `  tool ${request.tool.originalName}${hints.length > 0 ? ` · ${hints.join(' ')}${request.server?.trusted ? '' : ' (unverified hints)'}` : ' · no annotations'}`,
        `  args ${JSON.stringify(request.args, null, 2).split('\n').join('\n  ')}`,
        '  [y] allow once   [n / Esc] deny once  ',
      ].join('\n'),
    );
    return new Promise((resolve) => {
      const wasRaw = this.input.isRaw;
      this.input.setRawMode(true);
      this.input.resume();
      const finish = (decision: PermissionDecision) => {
        this.input.off('data', onData);
        signal.removeEventListener('abort', onAbort);
        this.input.setRawMode(wasRaw);
        this.input.pause();
        this.output.write(`${decision === 'allow_once' ? 'allowed once' : 'denied once'}\n`);
        resolve(decision);
      };
      const onData = (data: Buffer) => {
        const key = data.toString('utf8');
        if (key === 'y' || key === 'Y') finish('allow_once');
        else if (key === 'n' || key === 'N' || key === '\r' || key === '\u001b' || key === '\u0003')
          finish('deny_once');
      };
      const onAbort = () => finish('deny_once');
      this.input.on('data', onData);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

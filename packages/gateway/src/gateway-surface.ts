import type {
  ElicitationAnswer,
  SignInRequest,
  ElicitationRequest,
  PermissionDecision,
  PermissionRequest,
  Scope,
  Surface,
} from '@airlock/core';
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from '@modelcontextprotocol/server';
import { formSchema } from './form-schema.js';
import { decisionOf, permissionQuestion } from './permission-question.js';

/** One MCP client the gateway can ask: the elicitation modes it declared, and a way to send it a question. */
export interface ClientAsker {
  /** The modes of `elicitation/create` the client declared at initialize. */
  modes(): { readonly form: boolean; readonly url: boolean };
  /** Sends `elicitation/create`; over HTTP, on the stream of the request being served when there is one. */
  elicit(params: ElicitRequestFormParams | ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult>;
}

/**
 * The gateway's {@link Surface}: it answers the host's questions by asking the person at the MCP client that made
 * the call (`elicitation/create`). A call's questions go to the client that sent that call (bound by invocation id
 * while it runs); a question with no call behind it (a resource read a rule asks about) to the client of its
 * conversation. A client that cannot be asked makes the call fail closed, with a text saying how to allow it; or,
 * with a `fallback` (the console's tabs, when the console serves the gateway), its question goes there instead, as
 * does every question of a call no MCP client made.
 */
export class GatewaySurface implements Surface {
  readonly elicitationModes = ['form', 'url'] as const;
  /** Sign-in, when the fallback offers it (the console's popup); the gateway's clients have no way to sign in. */
  readonly authorize?: (request: SignInRequest, signal: AbortSignal) => Promise<URL | string>;
  readonly #calls = new Map<string, ClientAsker>();
  readonly #conversations = new Map<string, ClientAsker>();
  readonly #fallback: Surface | undefined;

  /** `fallback` answers what no MCP client can: questions of calls that are not the gateway's, or of a client that cannot elicit. */
  constructor(options: { readonly fallback?: Surface } = {}) {
    this.#fallback = options.fallback;
    const signIn = options.fallback?.authorize?.bind(options.fallback);
    if (signIn !== undefined) this.authorize = signIn;
  }

  /** Routes the questions of one call to the client that made it, until the returned function is called. */
  attachCall(invocationId: string, asker: ClientAsker): () => void {
    this.#calls.set(invocationId, asker);
    return () => this.#calls.delete(invocationId);
  }

  /** Routes the questions of a conversation with no call behind them to its client, until detached. */
  attachConversation(scope: Scope, asker: ClientAsker): () => void {
    const key = conversationKey(scope);
    this.#conversations.set(key, asker);
    return () => {
      if (this.#conversations.get(key) === asker) this.#conversations.delete(key);
    };
  }

  async askPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const asker = this.#askerOf(request.invocationId, request.scope);
    if (asker?.modes().form !== true) {
      if (this.#fallback !== undefined) return this.#fallback.askPermission(request, signal);
      if (asker === undefined) throw new Error(NO_CLIENT);
      throw new Error(cannotAsk(request));
    }
    return decisionOf(await asker.elicit(permissionQuestion(request), signal), request);
  }

  async elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    const asker = this.#askerOf(request.invocationId, request.scope);
    const fallback = this.#fallback?.elicit?.bind(this.#fallback);
    const modes = asker?.modes() ?? { form: false, url: false };
    if (fallback !== undefined && !(request.mode === 'url' ? modes.url : modes.form)) return fallback(request, signal);
    if (asker === undefined) throw new Error(NO_CLIENT);
    const message = `Server "${request.serverId}" asks (during ${request.tool}):\n${request.message}`;
    let params: ElicitRequestFormParams | ElicitRequestURLParams;
    if (request.mode === 'url' && request.url !== undefined) {
      if (!modes.url) throw new Error('the MCP client declared no URL-mode elicitation, so it cannot be asked');
      params = { mode: 'url', message, url: request.url.url, elicitationId: request.serverElicitationId ?? request.id };
    } else if (request.form !== undefined) {
      if (!modes.form) throw new Error('the MCP client declared no elicitation, so it cannot be asked');
      params = { mode: 'form', message, requestedSchema: formSchema(request.form.model) };
    } else {
      throw new Error(`a ${request.mode}-mode question without its ${request.mode} cannot be passed on`);
    }
    const answer = await asker.elicit(params, signal);
    if (answer.action === 'accept') return answer.content === undefined ? { action: 'accept' } : answer;
    return { action: answer.action };
  }

  #askerOf(invocationId: string, scope: Scope): ClientAsker | undefined {
    return this.#calls.get(invocationId) ?? this.#conversations.get(conversationKey(scope));
  }
}

const NO_CLIENT = 'no MCP client of this conversation is connected to ask';

/** What a call that needs consent tells the model when its client cannot show a question. */
function cannotAsk(request: PermissionRequest): string {
  const rule = JSON.stringify({
    effect: 'allow',
    ...(request.server === null ? { name: request.tool.name } : { server: request.server.id }),
    ...(request.server === null ? {} : { tool: request.tool.originalName }),
  });
  const target = request.server === null ? request.tool.name : `${request.server.id}/${request.tool.originalName}`;
  return (
    'the MCP client declares no elicitation, so no one could be asked. To allow it, add a rule to the gateway ' +
    `config's "permissions": {"rules": [${rule}]} (\`airlock permissions explain ${target}\` shows what decides ` +
    'it now), or connect from a client that supports elicitation'
  );
}

function conversationKey(scope: Scope): string {
  return JSON.stringify([scope.userId, scope.workspaceId, scope.conversationId]);
}

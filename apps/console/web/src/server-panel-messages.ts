import type { Locale } from '@airlock/core/i18n';

/**
 * The strings of the server panel (a server's state and its reason, what it says of itself, its log for
 * administrators, its switches), in every locale; part of the console's catalog (`CONSOLE_MESSAGES`). Change a
 * message in both locales at once.
 */
export const SERVER_PANEL_MESSAGES = {
  'en-US': {
    'console.server_panel.trusted': 'Trusted server',
    'console.server_panel.untrusted': 'Untrusted server',
    'console.server_panel.reason.degraded': 'Last error: {error}',
    'console.server_panel.reason.retrying': 'Retrying at {time}.',
    'console.server_panel.reason.failed': 'Failed: {error}',
    'console.server_panel.reason.not_retrying': 'Not retrying on its own: reconnect to try again.',
    'console.server_panel.reason.needs_auth': 'Sign in to use its tools.',
    'console.server_panel.reason.connecting': 'Starting…',
    'console.server_panel.reason.disabled': 'Switched off by an administrator.',
    'console.server_panel.protocol': 'Protocol',
    'console.server_panel.counts': 'Offers',
    'console.server_panel.counts_value': '{tools} tools, {resources} resources, {prompts} prompts',
    'console.server_panel.origin_command': 'Command line',
    'console.server_panel.origin_url': 'URL',
    'console.server_panel.tools': 'Offered to the model',
    'console.server_panel.tools_hint':
      'A tool switched off is not offered to the model; you can still run it yourself from the tool launcher.',
    'console.server_panel.tool_for_me': 'Offer {tool} to the model',
    'console.server_panel.tool_for_workspace': 'For everyone in workspace {workspace}',
    'console.server_panel.tool_hidden_workspace': 'Switched off for the whole workspace by an administrator.',
    'console.server_panel.no_tools': 'This server lists no tools.',
    'console.server_panel.log': 'Log (stderr and log notifications)',
    'console.server_panel.log_empty': 'The server has written nothing yet.',
    'console.server_panel.disable': 'Switch {server} off',
    'console.server_panel.enable': 'Switch {server} on',
    'console.server_panel.disable_hint': 'For every user: its tools leave every list until it is switched on again.',
  },
  'pt-BR': {
    'console.server_panel.trusted': 'Servidor confiável',
    'console.server_panel.untrusted': 'Servidor não confiável',
    'console.server_panel.reason.degraded': 'Último erro: {error}',
    'console.server_panel.reason.retrying': 'Nova tentativa às {time}.',
    'console.server_panel.reason.failed': 'Falhou: {error}',
    'console.server_panel.reason.not_retrying': 'Não tenta de novo sozinho: reconecte para tentar outra vez.',
    'console.server_panel.reason.needs_auth': 'Entre para usar as ferramentas dele.',
    'console.server_panel.reason.connecting': 'Iniciando…',
    'console.server_panel.reason.disabled': 'Desligado por um administrador.',
    'console.server_panel.protocol': 'Protocolo',
    'console.server_panel.counts': 'Oferece',
    'console.server_panel.counts_value': '{tools} ferramentas, {resources} recursos, {prompts} prompts',
    'console.server_panel.origin_command': 'Linha de comando',
    'console.server_panel.origin_url': 'URL',
    'console.server_panel.tools': 'Oferecidas ao modelo',
    'console.server_panel.tools_hint':
      'Uma ferramenta desligada não é oferecida ao modelo; você ainda pode executá-la pelo lançador de ferramentas.',
    'console.server_panel.tool_for_me': 'Oferecer {tool} ao modelo',
    'console.server_panel.tool_for_workspace': 'Para todos no espaço de trabalho {workspace}',
    'console.server_panel.tool_hidden_workspace': 'Desligada para todo o espaço de trabalho por um administrador.',
    'console.server_panel.no_tools': 'Este servidor não lista ferramentas.',
    'console.server_panel.log': 'Registro (stderr e notificações de log)',
    'console.server_panel.log_empty': 'O servidor ainda não escreveu nada.',
    'console.server_panel.disable': 'Desligar {server}',
    'console.server_panel.enable': 'Ligar {server}',
    'console.server_panel.disable_hint':
      'Para todos os usuários: as ferramentas dele saem de todas as listas até ser ligado de novo.',
  },
} as const satisfies Record<Locale, Record<string, string>>;

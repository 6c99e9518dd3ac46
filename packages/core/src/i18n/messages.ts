/** The locales every surface ships. */
export type Locale = 'en-US' | 'pt-BR';

export const LOCALES = ['en-US', 'pt-BR'] as const satisfies readonly Locale[];

/**
 * The one catalog every surface (CLI, web components, console) reads. Keys are stable; `{name}` placeholders are
 * filled by `formatMessage`. Editorial copy: change it here, for both locales at once.
 */
export const MESSAGES = {
  'en-US': {
    'mcp.permission.title': 'Allow this tool to run?',
    'mcp.permission.from': 'From {server}',
    'mcp.permission.action.allow_once': 'Allow once',
    'mcp.permission.action.allow_always': 'Allow always',
    'mcp.permission.action.deny_once': 'Deny once',
    'mcp.permission.action.deny_always': 'Deny always',
    'mcp.permission.risk.low': 'Low risk · read-only',
    'mcp.permission.risk.medium': 'Medium risk',
    'mcp.permission.risk.high': 'High risk · may modify data',
    'mcp.permission.checking': 'Checking permissions…',
    'mcp.permission.arguments': 'Arguments',
    'mcp.permission.annotations': 'This tool will:',
    'mcp.permission.unverified': 'Unverified hints from an untrusted server',
    'mcp.permission.no_annotations': 'No annotations: treated as the worst case',
    'mcp.permission.allow_always_refused': 'Allow always is not offered for tools that may modify or delete data.',
    'mcp.permission.hint.readOnly': 'Only reads data',
    'mcp.permission.hint.destructive': 'May modify or delete data',
    'mcp.permission.hint.idempotent': 'Repeating it has no further effect',
    'mcp.permission.hint.openWorld': 'Reaches outside systems',
    'mcp.permission.choose': 'Choose 1-4 (Esc denies once): ',
    'mcp.permission.denied_model': 'The user denied {tool}; it was not run.',
    'mcp.permission.trusted': 'trusted',
    'mcp.permission.untrusted': 'untrusted',
    'mcp.elicitation.title': 'The server {server} asks:',
    'mcp.elicitation.action.accept': 'Submit',
    'mcp.elicitation.action.reject': 'Reject',
    'mcp.elicitation.action.cancel': 'Cancel',
    'mcp.elicitation.timeout_warning': 'Closing in {seconds}s',
    'mcp.elicitation.url_mode.opening': 'Opening external page',
    'mcp.elicitation.url_mode.open': 'Open page',
    'mcp.elicitation.url_mode.host': 'Site',
    'mcp.elicitation.url_mode.confirm': 'Open this page in your browser? [y/N]',
    'mcp.elicitation.url_mode.done': 'Done, retry',
    'mcp.elicitation.url_mode.warning.not_https': 'This page is not served over HTTPS.',
    'mcp.elicitation.url_mode.warning.punycode': 'The address uses look-alike (punycode) characters.',
    'mcp.elicitation.url_mode.warning.credentials_in_url': 'The address carries a user name or password.',
    'mcp.elicitation.url_mode.warning.ip_address': 'The address is a bare IP address, not a named site.',
    'mcp.elicitation.field_required': 'Required',
    'mcp.elicitation.default': 'default',
    'mcp.elicitation.choose': '[1] Submit  [2] Reject  [3] Cancel (Enter submits):',
  },
  'pt-BR': {
    'mcp.permission.title': 'Permitir execução desta ferramenta?',
    'mcp.permission.from': 'Do servidor {server}',
    'mcp.permission.action.allow_once': 'Permitir uma vez',
    'mcp.permission.action.allow_always': 'Permitir sempre',
    'mcp.permission.action.deny_once': 'Negar uma vez',
    'mcp.permission.action.deny_always': 'Negar sempre',
    'mcp.permission.risk.low': 'Risco baixo · somente leitura',
    'mcp.permission.risk.medium': 'Risco médio',
    'mcp.permission.risk.high': 'Risco alto · pode modificar dados',
    'mcp.permission.checking': 'Verificando permissões…',
    'mcp.permission.arguments': 'Argumentos',
    'mcp.permission.annotations': 'Esta ferramenta vai:',
    'mcp.permission.unverified': 'Indicações não verificadas de um servidor não confiável',
    'mcp.permission.no_annotations': 'Sem anotações: tratada como o pior caso',
    'mcp.permission.allow_always_refused':
      'Permitir sempre não é oferecido para ferramentas que podem modificar ou apagar dados.',
    'mcp.permission.hint.readOnly': 'Apenas lê dados',
    'mcp.permission.hint.destructive': 'Pode modificar ou apagar dados',
    'mcp.permission.hint.idempotent': 'Repetir não tem efeito adicional',
    'mcp.permission.hint.openWorld': 'Acessa sistemas externos',
    'mcp.permission.choose': 'Escolha 1-4 (Esc nega uma vez): ',
    'mcp.permission.denied_model': 'O usuário negou {tool}; ela não foi executada.',
    'mcp.permission.trusted': 'confiável',
    'mcp.permission.untrusted': 'não confiável',
    'mcp.elicitation.title': 'O servidor {server} pergunta:',
    'mcp.elicitation.action.accept': 'Enviar',
    'mcp.elicitation.action.reject': 'Recusar',
    'mcp.elicitation.action.cancel': 'Cancelar',
    'mcp.elicitation.timeout_warning': 'Fechando em {seconds}s',
    'mcp.elicitation.url_mode.opening': 'Abrindo página externa',
    'mcp.elicitation.url_mode.open': 'Abrir página',
    'mcp.elicitation.url_mode.host': 'Site',
    'mcp.elicitation.url_mode.confirm': 'Abrir esta página no navegador? [s/N]',
    'mcp.elicitation.url_mode.done': 'Concluído, tentar de novo',
    'mcp.elicitation.url_mode.warning.not_https': 'Esta página não usa HTTPS.',
    'mcp.elicitation.url_mode.warning.punycode': 'O endereço usa caracteres parecidos (punycode).',
    'mcp.elicitation.url_mode.warning.credentials_in_url': 'O endereço contém usuário ou senha.',
    'mcp.elicitation.url_mode.warning.ip_address': 'O endereço é um IP, não um site com nome.',
    'mcp.elicitation.field_required': 'Obrigatório',
    'mcp.elicitation.default': 'padrão',
    'mcp.elicitation.choose': '[1] Enviar  [2] Recusar  [3] Cancelar (Enter envia):',
  },
} as const satisfies Record<Locale, Record<string, string>>;

/** Every message key. Both locales have exactly the same keys (the type checks it). */
export type MessageKey = keyof (typeof MESSAGES)['en-US'];

const _sameKeys: Record<MessageKey, string> = MESSAGES['pt-BR'];
void _sameKeys;

/** A message in a locale with its `{placeholders}` filled; an unknown locale falls back to en-US. */
export function formatMessage(
  locale: string,
  key: MessageKey,
  params: Readonly<Record<string, string | number>> = {},
): string {
  const catalog: Record<MessageKey, string> = locale in MESSAGES ? MESSAGES[locale as Locale] : MESSAGES['en-US'];
  return catalog[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

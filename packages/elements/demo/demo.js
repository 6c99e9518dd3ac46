// The demo page: every element of @airlock/elements in every state, with a preset picker, light/dark and en-US/pt-BR.
// Written against the elements' documented properties only, and defensively: an element that is not defined (not
// built yet) gets a notice in its place instead of breaking the page.
import { screen, text, toolCards } from './fixtures/cards.js';
import { ELICITATION_REQUESTS, PERMISSION_REQUESTS } from './fixtures/dialogs.js';
import { pngBase64, wavBase64 } from './fixtures/media.js';
import { toolListEntries } from './fixtures/tool-list.js';

const BUNDLE = '../dist/bundle/airlock-elements.js';

/** The page's own words (the elements take theirs from the @airlock/core catalog). */
const WORDS = {
  'en-US': {
    title: 'Airlock elements',
    intro: 'Every element in every state. Pick a preset, a mode and a language; the elements follow.',
    preset: 'Preset',
    theme: 'Mode',
    light: 'Light',
    dark: 'Dark',
    lang: 'Language',
    cards: 'Tool cards',
    live: 'A live call',
    run: 'Run a call',
    permission: 'Permission sheet',
    elicitation: 'Elicitation dialog',
    list: 'Tool list',
    list_empty: 'Tool list, empty',
    reset: 'Restore decisions',
    log: 'Events',
    log_empty: 'Nothing yet. Press a button on an element.',
    missing: 'Not built yet: <{tag}> is not defined in the bundle.',
    no_bundle: 'The bundle is missing. Run "npm run build" at the repository root, then reload.',
    'perm.normal': 'Normal (low risk)',
    'perm.destructive': 'Destructive, allow always refused',
    'perm.checking': 'Checking permissions',
    'perm.unannotated': 'No annotations, long arguments (renewal)',
    'eli.form': 'Form: every field type',
    'eli.errors': 'Form asked again, with errors',
    'eli.countdown': 'Countdown (closes in 25 s)',
    'eli.url': 'URL mode: punycode warning',
    'eli.url_all': 'URL mode: every warning',
    'card.pending': 'Pending',
    'card.running': 'Running',
    'card.progress': 'Running, with progress',
    'card.markdown': 'Success: markdown text (with icon)',
    'card.image': 'Success: image',
    'card.large_image': 'Success: large image (thumbnail)',
    'card.over_budget_image': 'Success: image over the screen budget',
    'card.audio': 'Success: audio',
    'card.resource_link': 'Success: resource links',
    'card.embedded': 'Success: embedded resources',
    'card.structured': 'Success: structured content',
    'card.long_text': 'Success: long text (show more)',
    'card.huge_text': 'Success: huge text, truncated (5 MB)',
    'card.hostile': 'Success: hostile markdown, sanitised',
    'card.tool_error': 'Error: the tool failed (retry)',
    'card.protocol_error': 'Error: protocol error',
    'card.timeout': 'Error: timeout',
    'card.cancelled': 'Cancelled',
    'card.denied': 'Cancelled: permission denied',
    'card.native': 'Native tool',
  },
  'pt-BR': {
    title: 'Elementos do Airlock',
    intro: 'Cada elemento em cada estado. Escolha um preset, um modo e um idioma; os elementos acompanham.',
    preset: 'Preset',
    theme: 'Modo',
    light: 'Claro',
    dark: 'Escuro',
    lang: 'Idioma',
    cards: 'Cartões de ferramenta',
    live: 'Uma chamada ao vivo',
    run: 'Executar uma chamada',
    permission: 'Folha de permissão',
    elicitation: 'Diálogo de elicitação',
    list: 'Lista de ferramentas',
    list_empty: 'Lista de ferramentas, vazia',
    reset: 'Restaurar decisões',
    log: 'Eventos',
    log_empty: 'Nada ainda. Aperte um botão em um elemento.',
    missing: 'Ainda não construído: <{tag}> não está definido no bundle.',
    no_bundle: 'O bundle não existe. Rode "npm run build" na raiz do repositório e recarregue.',
    'perm.normal': 'Normal (risco baixo)',
    'perm.destructive': 'Destrutiva, permitir sempre recusado',
    'perm.checking': 'Verificando permissões',
    'perm.unannotated': 'Sem anotações, argumentos longos (renovação)',
    'eli.form': 'Formulário: todos os tipos de campo',
    'eli.errors': 'Formulário pedido de novo, com erros',
    'eli.countdown': 'Contagem regressiva (fecha em 25 s)',
    'eli.url': 'Modo URL: aviso de punycode',
    'eli.url_all': 'Modo URL: todos os avisos',
    'card.pending': 'Pendente',
    'card.running': 'Executando',
    'card.progress': 'Executando, com progresso',
    'card.markdown': 'Sucesso: texto markdown (com ícone)',
    'card.image': 'Sucesso: imagem',
    'card.large_image': 'Sucesso: imagem grande (miniatura)',
    'card.over_budget_image': 'Sucesso: imagem acima do limite da tela',
    'card.audio': 'Sucesso: áudio',
    'card.resource_link': 'Sucesso: links de recurso',
    'card.embedded': 'Sucesso: recursos embutidos',
    'card.structured': 'Sucesso: conteúdo estruturado',
    'card.long_text': 'Sucesso: texto longo (mostrar mais)',
    'card.huge_text': 'Sucesso: texto enorme, truncado (5 MB)',
    'card.hostile': 'Sucesso: markdown hostil, sanitizado',
    'card.tool_error': 'Erro: a ferramenta falhou (tentar de novo)',
    'card.protocol_error': 'Erro: erro de protocolo',
    'card.timeout': 'Erro: tempo esgotado',
    'card.cancelled': 'Cancelado',
    'card.denied': 'Cancelado: permissão negada',
    'card.native': 'Ferramenta nativa',
  },
};

const FALLBACK_PRESETS = [
  'material3',
  'material2',
  'terminal_classic',
  'brutalist',
  'cyberpunk_neon',
  'glassmorphism',
  'minimalist_mono',
];

const $ = (selector) => document.querySelector(selector);
const lang = () => (document.documentElement.lang === 'pt-BR' ? 'pt-BR' : 'en-US');
const word = (key, params = {}) => (WORDS[lang()][key] ?? key).replace(/\{(\w+)\}/g, (_, name) => params[name] ?? '');

/** Creates an element of `tag` with `props`, or a notice when the tag is not defined. */
function element(tag, props = {}) {
  if (customElements.get(tag) === undefined) {
    const notice = document.createElement('p');
    notice.className = 'missing';
    notice.dataset['word'] = 'missing';
    notice.dataset['tag'] = tag;
    notice.textContent = word('missing', { tag });
    return notice;
  }
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) if (value !== undefined) node[key] = value;
  return node;
}

/** A captioned figure: the caption is a page word, translated on language change. */
function figure(captionKey, child) {
  const box = document.createElement('figure');
  const caption = document.createElement('figcaption');
  caption.dataset['word'] = captionKey;
  caption.textContent = word(captionKey);
  box.append(caption, child);
  return box;
}

function button(wordKey, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset['word'] = wordKey;
  b.textContent = word(wordKey);
  b.addEventListener('click', onClick);
  return b;
}

/** Re-translates the page's words and asks every element to render again in the new language. */
function retranslate() {
  for (const node of document.querySelectorAll('[data-word]')) {
    node.textContent = word(node.dataset['word'], { tag: node.dataset['tag'] ?? '' });
  }
  for (const node of document.querySelectorAll('*')) {
    if (node.localName.startsWith('airlock-') && typeof node.requestUpdate === 'function') node.requestUpdate();
  }
}

// ---------------------------------------------------------------------------------------------------------------

function setupControls(airlock) {
  const params = new URLSearchParams(location.search);
  const names = airlock?.PRESET_NAMES ?? FALLBACK_PRESETS;
  const presetSelect = $('#preset');
  for (const name of names) presetSelect.append(new Option(name, name));
  const prefersDark = matchMedia('(prefers-color-scheme: dark)').matches;
  const state = {
    preset: names.includes(params.get('preset')) ? params.get('preset') : 'material3',
    theme: params.get('theme') === 'dark' || (params.get('theme') === null && prefersDark) ? 'dark' : 'light',
    lang: params.get('lang') === 'pt-BR' ? 'pt-BR' : 'en-US',
  };
  const apply = () => {
    if (typeof airlock?.applyPreset === 'function')
      airlock.applyPreset(document.documentElement, state.preset, state.theme);
    else document.documentElement.dataset['airlockTheme'] = state.theme;
    document.documentElement.lang = state.lang;
    presetSelect.value = state.preset;
    $(`#theme-${state.theme}`).checked = true;
    $('#lang').value = state.lang;
    history.replaceState(null, '', `?${new URLSearchParams(state)}`);
    retranslate();
  };
  presetSelect.addEventListener('change', () => ((state.preset = presetSelect.value), apply()));
  for (const mode of ['light', 'dark'])
    $(`#theme-${mode}`).addEventListener('change', () => ((state.theme = mode), apply()));
  $('#lang').addEventListener('change', () => ((state.lang = $('#lang').value), apply()));
  apply();
}

function setupCards() {
  const small = pngBase64({ width: 320, height: 180, label: 'Airlock' });
  const media = {
    small,
    large: pngBase64({ width: 640, height: 400, noise: true }),
    audio: wavBase64(),
    icon: `data:image/png;base64,${pngBase64({ width: 48, height: 48 }).data}`,
  };
  const grid = $('#cards');
  for (const { caption, ...props } of toolCards(media))
    grid.append(figure(caption, element('airlock-tool-card', props)));
  setupLiveCard();
}

/** One card that goes pending, running with progress, then success, as a host would feed it. */
function setupLiveCard() {
  const card = element('airlock-tool-card');
  const holder = $('#live');
  let timer;
  const start = () => {
    if (!('invocation' in card)) return;
    const base = {
      id: `live-${Date.now()}`,
      tool: 'db__export',
      originalName: 'export',
      serverId: 'db',
      outcome: null,
      error: null,
      args: { table: 'events', format: 'csv' },
    };
    card.tool = { name: 'db__export', title: 'Export table' };
    card.server = { id: 'db', trusted: true };
    card.result = undefined;
    card.progress = undefined;
    card.invocation = { ...base, state: 'pending' };
    let step = 0;
    clearInterval(timer);
    timer = setInterval(() => {
      step += 1;
      if (step <= 10) {
        card.invocation = { ...base, state: 'running' };
        card.progress = { progress: step, total: 10, message: `Exported ${step * 1000} rows` };
        return;
      }
      clearInterval(timer);
      card.invocation = { ...base, state: 'success', outcome: 'success' };
      card.result = screen([text('Exported **10,000 rows** to `events.csv`.')]);
    }, 400);
  };
  holder.append(button('run', start), card);
  start();
}

function setupPermission() {
  const sheet = element('airlock-permission-sheet');
  const open = (key, checking = false) => {
    if (typeof sheet.show !== 'function') return;
    sheet.request = PERMISSION_REQUESTS[key];
    sheet.checking = checking;
    sheet.show();
    if (checking) setTimeout(() => (sheet.checking = false), 2500);
  };
  $('#permission').append(
    button('perm.normal', () => open('normal')),
    button('perm.destructive', () => open('destructive')),
    button('perm.checking', () => open('normal', true)),
    button('perm.unannotated', () => open('unannotated')),
    sheet,
  );
}

function setupElicitation() {
  const dialog = element('airlock-elicitation-dialog');
  let clock;
  const tick = () => (dialog.now = Date.now());
  const open = (key) => {
    if (typeof dialog.show !== 'function') return;
    tick();
    dialog.request = ELICITATION_REQUESTS[key](Date.now());
    dialog.show();
    clearInterval(clock);
    clock = setInterval(tick, 1000);
  };
  for (const end of ['airlock-elicitation-answer', 'airlock-elicitation-done']) {
    dialog.addEventListener(end, () => clearInterval(clock));
  }
  $('#elicitation').append(
    button('eli.form', () => open('form')),
    button('eli.errors', () => open('errors')),
    button('eli.countdown', () => open('countdown')),
    button('eli.url', () => open('url')),
    button('eli.url_all', () => open('urlEveryWarning')),
    dialog,
  );
}

function setupToolList() {
  const list = element('airlock-tool-list', { entries: toolListEntries(Date.now()) });
  list.addEventListener('airlock-decision-revoke', (event) => {
    list.entries = list.entries.map((entry) =>
      entry.decision?.id === event.detail.decisionId ? { ...entry, decision: undefined } : entry,
    );
  });
  $('#list').append(
    button('reset', () => (list.entries = toolListEntries(Date.now()))),
    list,
  );
  $('#list-empty').append(element('airlock-tool-list', { entries: [] }));
}

/** Every event the elements fire, newest first; a retry re-runs the failed card. */
function setupLog() {
  const log = $('#log');
  const events = [
    'airlock-tool-retry',
    'airlock-tool-copy',
    'airlock-permission-decide',
    'airlock-elicitation-answer',
    'airlock-elicitation-done',
    'airlock-decision-revoke',
  ];
  for (const name of events) {
    document.addEventListener(name, (event) => {
      $('#log-empty')?.remove();
      const payload = event.detail ?? event.decision ?? event.answer ?? event.requestId;
      const item = document.createElement('li');
      const json = JSON.stringify(payload) ?? '';
      const shown = json.length > 200 ? `${json.slice(0, 200)}… (${json.length} characters)` : json;
      item.textContent = `${new Date().toLocaleTimeString(lang())}  ${name}  ${shown}`;
      log.prepend(item);
      if (name === 'airlock-tool-retry') rerun(event.target);
    });
  }
}

function rerun(card) {
  if (!card?.invocation) return;
  const invocation = { ...card.invocation, state: 'running', outcome: null, error: null };
  card.result = undefined;
  card.invocation = invocation;
  setTimeout(() => {
    card.invocation = { ...invocation, state: 'success', outcome: 'success' };
    card.result = screen([text('It worked the second time.')]);
  }, 1500);
}

async function main() {
  let airlock;
  try {
    airlock = await import(/* @vite-ignore */ BUNDLE);
  } catch (error) {
    const banner = $('#banner');
    banner.hidden = false;
    banner.dataset['word'] = 'no_bundle';
    banner.textContent = word('no_bundle');
    console.error(error);
  }
  setupControls(airlock);
  setupLog();
  const parts = [setupCards, setupPermission, setupElicitation, setupToolList];
  for (const part of parts) {
    try {
      part();
    } catch (error) {
      // One part failing (an element changed shape while it is being written) must not blank the others.
      console.error(error);
    }
  }
  retranslate();
}

void main();

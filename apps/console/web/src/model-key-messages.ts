import type { Locale } from '@airlock/core/i18n';

/**
 * The strings of the chat's model picker and model keys (a user's own API key, kept sealed on the server), in every
 * locale; part of the console's catalog (`CONSOLE_MESSAGES`). Change a message in both locales at once.
 */
export const MODEL_KEY_MESSAGES = {
  'en-US': {
    'console.chat.model_choice': 'Model',
    'console.model_keys.title': 'Model keys',
    'console.model_keys.needed': '{count} needed',
    'console.model_keys.hint':
      'Your own API keys for these models. Kept sealed on the server and used only for your chats; never shown again.',
    'console.model_keys.kept': 'Your key is kept',
    'console.model_keys.not_kept': 'No key of yours',
    'console.model_keys.key': 'API key for {model} ({endpoint})',
    'console.model_keys.replace_placeholder': 'Paste a new key to replace it',
    'console.model_keys.keep': 'Keep key',
    'console.model_keys.replace': 'Replace',
    'console.model_keys.forget': 'Forget',
    'console.model_keys.fallback': "Without yours, the console's key is used.",
    'console.model_keys.required': 'Needed to chat with this model.',
    'console.audit.kind.model.key': 'Model key',
  },
  'pt-BR': {
    'console.chat.model_choice': 'Modelo',
    'console.model_keys.title': 'Chaves dos modelos',
    'console.model_keys.needed': '{count} necessária(s)',
    'console.model_keys.hint':
      'Suas próprias chaves de API para estes modelos. Guardadas seladas no servidor e usadas só nos seus chats; nunca mostradas de novo.',
    'console.model_keys.kept': 'Sua chave está guardada',
    'console.model_keys.not_kept': 'Nenhuma chave sua',
    'console.model_keys.key': 'Chave de API para {model} ({endpoint})',
    'console.model_keys.replace_placeholder': 'Cole uma nova chave para substituí-la',
    'console.model_keys.keep': 'Guardar chave',
    'console.model_keys.replace': 'Substituir',
    'console.model_keys.forget': 'Esquecer',
    'console.model_keys.fallback': 'Sem a sua, é usada a chave do console.',
    'console.model_keys.required': 'Necessária para conversar com este modelo.',
    'console.audit.kind.model.key': 'Chave de modelo',
  },
} as const satisfies Record<Locale, Record<string, string>>;

import { api } from './api-client.js';

/**
 * Signs the user in to a remote server: a popup is opened at once (inside the click, so no blocker stops it), the
 * console starts the sign-in and answers the authorization server's address, and the popup goes there. The user
 * consents, lands on the console's callback in the popup and finishes there; the server's state then changes for
 * this user and the page refetches it from the event stream. A machine sign-in needs no page: the popup closes.
 */
export async function signInToServer(serverId: string): Promise<void> {
  const popup = window.open('', 'airlock-sign-in', 'popup,width=520,height=680');
  try {
    const { authorizationUrl } = await api<{ authorizationUrl: string }>(
      'POST',
      `/api/servers/${encodeURIComponent(serverId)}/sign-in`,
    );
    if (authorizationUrl === '') {
      popup?.close();
      return;
    }
    if (popup === null) {
      // Popups blocked: the sign-in goes on in this tab instead.
      window.location.assign(authorizationUrl);
      return;
    }
    // The authorization server is a remote server's choice: its page gets no handle on this tab.
    popup.opener = null;
    popup.location.href = authorizationUrl;
  } catch (error) {
    popup?.close();
    throw error;
  }
}

/** Signs the user out of a remote server: the console revokes where the server offers it and deletes the tokens. */
export async function signOutOfServer(serverId: string): Promise<void> {
  await api('POST', `/api/servers/${encodeURIComponent(serverId)}/sign-out`);
}

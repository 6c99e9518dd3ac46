import { css } from 'lit';

/**
 * The view element's own styles: the frame, its controls, the model's context under it, and the error shown instead
 * of it.
 */
export const appViewStyles = css`
  :host {
    display: block;
  }
  iframe {
    display: block;
    width: 100%;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .context {
    margin-block-start: 0.25rem;
    font-size: 0.875em;
  }
  .context-title {
    margin: 0;
    font-weight: 600;
  }
  .context-text {
    margin: 0;
    white-space: pre-wrap;
    max-height: 8em;
    overflow: auto;
  }
  /* The view's own controls (full size, and each consent's answers) look like the host's, not bare native buttons. */
  .consent-actions button,
  .bar button {
    min-height: 32px;
    min-width: 32px;
    padding: 0 calc(var(--_space) * 1.5);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    background: var(--_surface);
    color: inherit;
  }
  /* The consent's last action is the one that lets the view's ask through. */
  .consent-actions button:last-child {
    border-color: var(--_primary);
    background: var(--_primary);
    color: var(--_on-primary);
  }
  .error {
    color: var(--_danger, inherit);
    margin: 0;
  }
`;

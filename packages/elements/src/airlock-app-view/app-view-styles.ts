import { css } from 'lit';

/** The view element's own styles: the frame, the model's context under it, and the error shown instead of it. */
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
  .error {
    color: var(--_danger, inherit);
    margin: 0;
  }
`;

import { css } from 'lit';

/** The elicitation dialog's own layout: message, fields, switch, URL block, warnings, countdown, actions. */
export const elicitationDialogStyles = css`
  .message {
    margin: var(--_space) 0 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  form,
  .body {
    display: grid;
    gap: calc(1.5 * var(--_space));
    margin-top: calc(2 * var(--_space));
  }
  .field {
    display: grid;
    gap: calc(var(--_space) / 2);
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  legend {
    padding: 0;
    margin-bottom: calc(var(--_space) / 2);
  }
  label,
  legend {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .req {
    color: var(--_on-danger);
  }
  input:not([type='checkbox'], [type='radio']),
  select,
  textarea {
    box-sizing: border-box;
    width: 100%;
    min-height: 48px;
    padding: 0 var(--_space);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    background: var(--_surface);
    color: inherit;
    font: inherit;
  }
  textarea {
    padding: var(--_space);
    resize: vertical;
  }
  [aria-invalid='true']:not(fieldset),
  fieldset[aria-invalid='true'] legend {
    border-color: var(--_on-danger);
  }
  .choice,
  .switch {
    display: flex;
    align-items: center;
    gap: var(--_space);
    min-height: 48px;
  }
  .choice label,
  .switch label {
    font-weight: normal;
    flex: 1;
    cursor: pointer;
  }
  .switch label {
    font-weight: 600;
  }
  .choice input {
    width: 22px;
    height: 22px;
    margin: 0;
  }
  input[role='switch'] {
    appearance: none;
    flex: none;
    position: relative;
    width: 48px;
    height: 28px;
    margin: 0;
    border-radius: 14px;
    border: 1px solid var(--_muted);
    background: var(--_border);
    cursor: pointer;
    transition: background var(--_motion);
  }
  input[role='switch']::after {
    content: '';
    position: absolute;
    top: 3px;
    left: 3px;
    width: 20px;
    height: 20px;
    border-radius: 50%;
    background: var(--_surface);
    box-shadow: 0 1px 2px rgb(0 0 0 / 0.3);
    transition: transform var(--_motion);
  }
  input[role='switch']:checked {
    background: var(--_primary);
    border-color: var(--_primary);
  }
  input[role='switch']:checked::after {
    transform: translateX(20px);
  }
  .desc,
  .error {
    margin: 0;
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }
  .desc {
    color: var(--_muted);
  }
  .error {
    color: var(--_on-danger);
  }
  .site {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: var(--_space);
  }
  mark {
    padding: 0 4px;
    border-radius: 4px;
    background: var(--_warning);
    color: var(--_on-warning);
    font-weight: 700;
    overflow-wrap: anywhere;
  }
  .raw-host,
  .url {
    font-family: var(--_mono);
    overflow-wrap: anywhere;
    word-break: break-all;
  }
  .url {
    margin: 0;
    padding: var(--_space);
    border-radius: calc(var(--_radius) / 2);
    background: color-mix(in srgb, var(--_border) 25%, var(--_surface));
    font-size: 0.85rem;
  }
  .warnings {
    padding: var(--_space) calc(1.5 * var(--_space));
    border-radius: calc(var(--_radius) / 2);
    background: var(--_danger);
    color: var(--_on-danger);
  }
  .warnings p {
    margin: 0;
    font-weight: 700;
  }
  .warnings ul {
    margin: calc(var(--_space) / 2) 0 0;
    padding-inline-start: calc(2.5 * var(--_space));
  }
  .countdown,
  .status {
    margin: 0;
    font-size: 0.9rem;
  }
  .countdown:not(:empty),
  .status:not(:empty) {
    margin-top: calc(1.5 * var(--_space));
  }
  .countdown {
    font-weight: 700;
    color: var(--_on-warning);
  }
  .form-error {
    margin: 0;
    color: var(--_on-danger);
  }
  .blocked {
    flex: 1 0 100%;
    margin: 0;
    font-size: 0.875rem;
    color: var(--_muted);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    justify-content: flex-end;
    gap: var(--_space);
    margin-top: calc(2 * var(--_space));
  }
  /* The heading takes focus only when the dialog opens (URL mode), so no stray Enter acts: no ring for it. */
  h2:focus {
    outline: none;
  }
`;

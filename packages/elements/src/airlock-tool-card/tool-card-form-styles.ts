import { css } from 'lit';

/** The form view of the arguments (R5): read-only controls per property, `*` for required, help under the label. */
export const toolCardFormStyles = css`
  .args-body {
    container-type: inline-size;
  }
  .form {
    display: grid;
    gap: calc(var(--_space) * 1.5);
  }
  .form .row {
    display: grid;
    grid-template-columns: minmax(8rem, 1fr) 2fr;
    gap: var(--_space);
    align-items: start;
  }
  @container (max-width: 420px) {
    .form .row {
      grid-template-columns: 1fr;
    }
  }
  .row-label .label {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .row-value {
    min-inline-size: 0;
  }
  .required {
    color: var(--_on-danger);
    margin-inline-start: 2px;
  }
  .field {
    box-sizing: border-box;
    inline-size: 100%;
    min-block-size: 36px;
    padding: 0 var(--_space);
    font: inherit;
    color: inherit;
    background: color-mix(in srgb, var(--_border) 12%, var(--_surface));
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
  }
  input[type='number'].field {
    font-family: var(--_mono);
  }
  .switch {
    display: inline-flex;
    align-items: center;
    gap: var(--_space);
    position: relative;
  }
  .switch input {
    position: absolute;
    inline-size: 44px;
    block-size: 24px;
    margin: 0;
    opacity: 0;
  }
  .switch .track {
    position: relative;
    inline-size: 44px;
    block-size: 24px;
    border-radius: 12px;
    background: var(--_border);
  }
  .switch .track::after {
    content: '';
    position: absolute;
    inset-block-start: 3px;
    inset-inline-start: 3px;
    inline-size: 18px;
    block-size: 18px;
    border-radius: 50%;
    background: var(--_surface);
    transition: transform var(--_motion);
  }
  .switch input:checked + .track {
    background: var(--_primary);
  }
  .switch input:checked + .track::after {
    transform: translateX(20px);
  }
  .switch-text {
    font-family: var(--_mono);
    color: var(--_muted);
  }
  .chips {
    display: inline-flex;
    flex-wrap: wrap;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    overflow: hidden;
  }
  .choice {
    padding: 4px calc(var(--_space) * 1.5);
    color: var(--_muted);
  }
  .choice + .choice {
    border-inline-start: 1px solid var(--_border);
  }
  .choice.picked {
    background: var(--_primary);
    color: var(--_on-primary);
    font-weight: 600;
  }
`;

import { css } from 'lit';

/**
 * The modal frame both airlock dialogs share: a centred card on wide screens, a bottom sheet at 600px and below,
 * sliding or fading in over `--airlock-motion` (0s under reduced motion), scrolling inside when taller than the
 * screen.
 */
export const modalFrameStyles = css`
  dialog {
    box-sizing: border-box;
    width: min(560px, calc(100vw - 4 * var(--_space)));
    max-height: calc(100dvh - 4 * var(--_space));
    overflow: auto;
    padding: calc(2 * var(--_space));
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: inherit;
    box-shadow: var(--airlock-shadow, 0 12px 32px rgb(0 0 0 / 0.24));
  }
  dialog[open] {
    animation: airlock-fade-in var(--_motion) ease-out;
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.45);
  }
  @media (max-width: 600px) {
    dialog {
      width: 100vw;
      max-width: 100vw;
      max-height: 90dvh;
      margin: auto 0 0;
      border-radius: var(--_radius) var(--_radius) 0 0;
      border-bottom: 0;
    }
    dialog[open] {
      animation-name: airlock-slide-up;
    }
  }
  @keyframes airlock-fade-in {
    from {
      opacity: 0;
      transform: scale(0.97);
    }
  }
  @keyframes airlock-slide-up {
    from {
      transform: translateY(100%);
    }
  }
  .top {
    display: flex;
    align-items: flex-start;
    gap: var(--_space);
  }
  .top > :first-child {
    flex: 1;
    min-width: 0;
  }
  .close {
    flex: none;
    border: 1px solid transparent;
    background: transparent;
    color: inherit;
    font-size: 1.4rem;
    line-height: 1;
  }
  .close:hover {
    border-color: var(--_border);
  }
  h2 {
    margin: 0;
    font-size: 1.15rem;
    overflow-wrap: anywhere;
  }
  .actions button {
    padding: 0 calc(2 * var(--_space));
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: inherit;
  }
  .actions button.primary {
    border-color: var(--_primary);
    background: var(--_primary);
    color: var(--_on-primary);
  }
  .actions button[aria-disabled='true'],
  .actions button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  .muted {
    color: var(--_muted);
  }
`;

/**
 * The permission sheet's own layout: header, risk badge colours by tier, hints, arguments, the 2x2 actions and allow
 * for this conversation across the width below them.
 */
export const permissionSheetStyles = css`
  .eyebrow {
    margin: 0 0 calc(var(--_space) / 2);
    font-size: 0.875rem;
    color: var(--_muted);
  }
  .reason {
    margin: calc(var(--_space) / -4) 0 calc(var(--_space) / 2);
    font-size: 0.875rem;
  }
  .tool {
    display: flex;
    align-items: center;
    gap: var(--_space);
  }
  .icon {
    flex: none;
    width: 32px;
    height: 32px;
    display: grid;
    place-items: center;
    font-size: 1.4rem;
  }
  .icon img {
    width: 32px;
    height: 32px;
    object-fit: contain;
  }
  .original {
    font-family: var(--_mono);
    font-size: 0.8rem;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    margin-top: var(--_space);
  }
  .chip,
  .risk {
    display: inline-flex;
    align-items: center;
    padding: 2px var(--_space);
    border-radius: 999px;
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }
  .chip {
    border: 1px solid var(--_border);
  }
  .risk.low {
    background: var(--_success);
    color: var(--_on-success);
  }
  .risk.medium {
    background: var(--_warning);
    color: var(--_on-warning);
  }
  .risk.high {
    background: var(--_danger);
    color: var(--_on-danger);
  }
  section {
    margin-top: calc(2 * var(--_space));
  }
  h3 {
    margin: 0 0 calc(var(--_space) / 2);
    font-size: 0.95rem;
  }
  ul {
    margin: 0;
    padding-inline-start: calc(2.5 * var(--_space));
  }
  .unverified {
    margin: 0 0 calc(var(--_space) / 2);
    font-size: 0.85rem;
    color: var(--_on-warning);
  }
  ul.unverified-hints li {
    font-style: italic;
  }
  pre {
    margin: 0;
    padding: var(--_space);
    border-radius: calc(var(--_radius) / 2);
    background: color-mix(in srgb, var(--_border) 25%, var(--_surface));
    font-family: var(--_mono);
    font-size: 0.8rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .more {
    margin-top: calc(var(--_space) / 2);
    border: 1px solid var(--_border);
    background: transparent;
    color: inherit;
    padding: 0 var(--_space);
  }
  .actions {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: var(--_space);
    margin-top: calc(2 * var(--_space));
  }
  .actions button[data-decision='allow_conversation'] {
    grid-column: 1 / -1;
  }
  .reason {
    margin: var(--_space) 0 0;
    font-size: 0.85rem;
    color: var(--_muted);
  }
  .checking {
    margin: calc(2 * var(--_space)) 0 0;
    min-height: 48px;
    display: flex;
    align-items: center;
  }
`;

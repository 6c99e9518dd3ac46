import { css } from 'lit';

/** The card's own styles, on top of `baseStyles` (tokens, focus ring, 48px buttons, reduced motion). */
export const toolCardStyles = css`
  :host {
    display: block;
    --_thumb: var(--airlock-tool-card-thumbnail-size, 96px);
  }
  .card {
    display: grid;
    gap: var(--_space);
    padding: var(--_space) calc(var(--_space) * 2);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--airlock-shadow, none);
  }
  .header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
  }
  .icon {
    display: inline-grid;
    place-items: center;
    inline-size: 24px;
    block-size: 24px;
    flex: none;
  }
  .icon img {
    inline-size: 24px;
    block-size: 24px;
    object-fit: contain;
  }
  .ident {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: calc(var(--_space) / 2) var(--_space);
    flex: 1 1 12rem;
    min-inline-size: 0;
  }
  .name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .raw-name,
  .uri {
    font-family: var(--_mono);
    font-size: 0.875em;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  .chip {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) / 2);
    padding: 2px var(--_space);
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 0.875em;
    overflow-wrap: anywhere;
  }
  .chip.trusted {
    background: var(--_success);
    color: var(--_on-success);
  }
  .chip.untrusted {
    background: var(--_warning);
    color: var(--_on-warning);
  }
  .status-area {
    display: flex;
    align-items: center;
    gap: var(--_space);
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: calc(var(--_space) / 2);
    padding: 2px var(--_space);
    border-radius: 999px;
    border: 1px solid var(--_border);
    font-size: 0.875em;
    font-weight: 600;
    color: var(--_muted);
  }
  .badge.running {
    border-color: var(--_primary);
    color: var(--_primary);
  }
  .badge.success {
    background: var(--_success);
    color: var(--_on-success);
    border-color: transparent;
  }
  .badge.error {
    background: var(--_danger);
    color: var(--_on-danger);
    border-color: transparent;
  }
  .badge.cancelled {
    border-style: dashed;
  }
  .dot {
    inline-size: 8px;
    block-size: 8px;
    border-radius: 50%;
    background: currentColor;
    animation: airlock-breathe calc(var(--_motion) * 8) ease-in-out infinite;
  }
  @keyframes airlock-breathe {
    50% {
      opacity: 0.25;
      transform: scale(0.7);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .dot {
      animation: none;
    }
  }
  .progress {
    display: grid;
    gap: calc(var(--_space) / 2);
  }
  progress {
    inline-size: 100%;
    accent-color: var(--_primary);
  }
  details {
    border-block-start: 1px solid var(--_border);
  }
  summary {
    display: flex;
    align-items: center;
    min-block-size: 48px;
    font-weight: 600;
    cursor: pointer;
  }
  .toolbar,
  .actions,
  .more {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
  }
  .segmented {
    display: inline-flex;
  }
  .segmented button {
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: inherit;
    border-radius: 0;
    padding: 0 calc(var(--_space) * 2);
  }
  .segmented button:first-child {
    border-start-start-radius: var(--_radius);
    border-end-start-radius: var(--_radius);
  }
  .segmented button:last-child {
    border-start-end-radius: var(--_radius);
    border-end-end-radius: var(--_radius);
  }
  .segmented button[aria-pressed='true'] {
    background: var(--_primary);
    color: var(--_on-primary);
  }
  .text-button,
  .retry {
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_primary);
    padding: 0 calc(var(--_space) * 1.5);
  }
  .retry {
    background: var(--_primary);
    color: var(--_on-primary);
  }
  .note,
  .help {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .help {
    display: block;
    font-weight: normal;
  }
  .error-message {
    color: var(--_on-danger);
    background: var(--_danger);
    padding: var(--_space);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }
  pre,
  code {
    font-family: var(--_mono);
  }
  pre {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .markdown {
    overflow-wrap: anywhere;
  }
  .markdown pre {
    padding: var(--_space);
    border-radius: calc(var(--_radius) / 2);
    background: color-mix(in srgb, var(--_border) 25%, var(--_surface));
  }
  .markdown pre code[class*='language-'] {
    display: block;
    border-inline-start: 3px solid var(--_primary);
    padding-inline-start: var(--_space);
  }
  .markdown img,
  .inline-image {
    max-inline-size: 100%;
    block-size: auto;
  }
  .thumbnail {
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
  }
  .thumb {
    max-inline-size: var(--_thumb);
    max-block-size: var(--_thumb);
    object-fit: contain;
    border: 1px solid var(--_border);
  }
  audio {
    max-inline-size: 100%;
  }
  hr {
    border: 0;
    border-block-start: 1px solid var(--_border);
    margin: var(--_space) 0;
  }
  .form {
    display: grid;
    gap: var(--_space);
    margin: 0;
  }
  .form .row {
    display: grid;
    grid-template-columns: minmax(8rem, 1fr) 2fr;
    gap: var(--_space);
  }
  .form dt {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .form dd {
    margin: 0;
    min-inline-size: 0;
  }
  .required {
    color: var(--_on-danger);
    margin-inline-start: 2px;
  }
  dialog {
    max-inline-size: 90vw;
    max-block-size: 90vh;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: inherit;
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.6);
  }
  .full-size {
    display: block;
    max-inline-size: 85vw;
    max-block-size: 75vh;
    margin-block-end: var(--_space);
  }
  .sr-only {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;

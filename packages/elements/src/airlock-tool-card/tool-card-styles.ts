import { css } from 'lit';

/** The card's own styles, on top of `baseStyles` (tokens, focus ring, 48px buttons, reduced motion). */
export const toolCardStyles = css`
  :host {
    display: block;
    --_thumb: var(--airlock-tool-card-thumbnail-size, 96px);
  }
  .card {
    position: relative;
    display: grid;
    gap: var(--_space);
    padding: var(--_space) calc(var(--_space) * 2);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--airlock-shadow, none);
  }
  .header {
    cursor: pointer;
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
  .icon .glyph {
    display: inline-grid;
    color: var(--_primary);
  }
  .svg-icon {
    flex: none;
    display: block;
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
  .badge.running,
  .badge.working,
  .badge.input_required {
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
  .badge.denied {
    background: var(--_warning);
    color: var(--_on-warning);
    border-color: var(--_on-warning);
  }
  .reason {
    margin: 0;
    padding: calc(var(--_space) * 0.75) var(--_space);
    border-inline-start: 4px solid var(--_on-danger);
    background: var(--_danger);
    color: var(--_on-danger);
    border-radius: calc(var(--_radius) / 2);
    overflow-wrap: anywhere;
  }
  .reason.denied,
  .reason.cancelled {
    border-inline-start-color: var(--_on-warning);
    background: var(--_warning);
    color: var(--_on-warning);
  }
  .reason-text {
    white-space: pre-line;
  }
  .reason-code {
    font-size: 0.8em;
    opacity: 0.9;
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
    gap: var(--_space);
    min-block-size: 48px;
    font-weight: 600;
    cursor: pointer;
    list-style: none;
  }
  summary::-webkit-details-marker {
    display: none;
  }
  /* The disclosure marker (R1 "▼ Arguments"), drawn, so no font is needed: points right closed, down open. */
  summary::before {
    content: '';
    flex: none;
    inline-size: 0.45em;
    block-size: 0.45em;
    margin-inline: 0.2em 0.1em;
    border-inline-end: 2px solid currentColor;
    border-block-end: 2px solid currentColor;
    transform: rotate(-45deg);
    transition: transform var(--_motion);
  }
  details[open] > summary::before {
    transform: rotate(45deg);
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
  .link-button {
    min-block-size: 32px;
    min-inline-size: 0;
    border: 0;
    background: none;
    color: var(--_primary);
    text-decoration: underline;
    padding: 0 calc(var(--_space) / 2);
  }
  .icon-button {
    display: inline-grid;
    place-items: center;
    min-block-size: 32px;
    min-inline-size: 32px;
    padding: 0;
    border: 1px solid transparent;
    background: none;
    color: var(--_muted);
    border-radius: calc(var(--_radius) / 2);
  }
  .icon-button:hover {
    border-color: var(--_border);
    color: var(--_primary);
  }
  .icon-button[data-copied='true'] {
    color: var(--_on-success);
  }
  .copied-note {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
  }
  .block {
    position: relative;
  }
  .block > .copy {
    float: inline-end;
    margin-inline-start: var(--_space);
  }
  .clipped {
    max-block-size: calc(var(--_lines, 30) * 1lh);
    overflow: hidden;
    mask-image: linear-gradient(to bottom, #000 85%, transparent);
  }
  .plain-text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    margin: 0;
  }
  .image-button {
    display: inline-block;
    padding: 0;
    min-block-size: 0;
    min-inline-size: 0;
    border: 1px solid var(--_border);
    background: none;
    cursor: zoom-in;
    border-radius: calc(var(--_radius) / 2);
    max-inline-size: 100%;
  }
  .image-button img {
    display: block;
  }
  .text-button,
  .cancel,
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
  .elapsed,
  .help {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .help {
    display: block;
    font-weight: normal;
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
  /* Full screen fills the viewport's room whatever the image's own size: a 16px icon scales up, its ratio kept. */
  .full-size {
    display: block;
    inline-size: 85vw;
    block-size: 75vh;
    object-fit: contain;
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

import type { ReactiveController, ReactiveControllerHost } from 'lit';

type Host = ReactiveControllerHost & HTMLElement;

const hosts = new Set<Host>();
let observer: MutationObserver | undefined;

/** The preset named by the nearest `data-airlock-preset` above `element`, crossing shadow roots; '' when none. */
export function presetOf(element: Element): string {
  let node: Element | null = element;
  while (node !== null) {
    const found: Element | null = node.closest('[data-airlock-preset]');
    if (found !== null) return found.getAttribute('data-airlock-preset') ?? '';
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return '';
}

function sync(host: Host): void {
  const preset = presetOf(host);
  if (host.getAttribute('data-preset') !== preset) {
    if (preset === '') host.removeAttribute('data-preset');
    else host.setAttribute('data-preset', preset);
  }
}

/**
 * Keeps the host's `data-preset` attribute equal to the preset `applyPreset` named on an ancestor
 * (`data-airlock-preset`), so an element's styles can draw what tokens cannot say (R9: brackets, 2px borders, glow,
 * backdrop blur) with `:host([data-preset='…'])`. One observer for the whole document watches that one attribute,
 * so switching presets restyles every element at once.
 */
export class PresetController implements ReactiveController {
  constructor(private readonly host: Host) {
    host.addController(this);
  }

  hostConnected(): void {
    hosts.add(this.host);
    sync(this.host);
    if (observer === undefined) {
      observer = new MutationObserver(() => {
        for (const host of hosts) sync(host);
      });
      observer.observe(document.documentElement, {
        subtree: true,
        attributes: true,
        attributeFilter: ['data-airlock-preset'],
      });
    }
  }

  hostDisconnected(): void {
    hosts.delete(this.host);
    if (hosts.size === 0) {
      observer?.disconnect();
      observer = undefined;
    }
  }
}

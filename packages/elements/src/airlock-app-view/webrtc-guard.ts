/**
 * Runs first in a view's document, before any script of the view's: it takes WebRTC away. No policy Chromium 156
 * enforces stops a peer connection (`connect-src` does not govern it, and the `webrtc` directive is "unrecognized"),
 * so a view could otherwise send UDP wherever it likes. The guard deletes the `RTC*` constructors from the view's
 * window, and removes every frame the view adds that would get a fresh window of its own without a fetch (`srcdoc`,
 * `about:blank`, `javascript:`), in the document and in shadow roots made with `attachShadow`, before that frame's
 * document loads: such a frame inherits the view's policy, inline scripts included, but not this guard. A frame of an
 * origin the resource declared (`frameDomains`) stays, as declared.
 *
 * What remains: a closed shadow root parsed from markup (`<template shadowrootmode="closed">`) is out of the guard's
 * sight, so a view written to get round it still can; only the `webrtc` directive, in a browser that enforces it,
 * closes that. Self-contained: it is sent as its source text.
 */
function guardWebRtc(): void {
  const view = window as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(view)) {
    if (/^(webkit)?RTC/.test(name)) delete view[name];
  }
  const fetched = (frame: Element): boolean =>
    !frame.hasAttribute('srcdoc') && /^https?:/i.test(frame.getAttribute('src') ?? '');
  const sweep = (node: Node): void => {
    if (!(node instanceof Element)) return;
    const frames = node.matches('iframe,frame') ? [node] : Array.from(node.querySelectorAll('iframe,frame'));
    for (const frame of frames) if (!fetched(frame)) frame.remove();
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') sweep(record.target);
      else record.addedNodes.forEach(sweep);
    }
  });
  const watch = (root: Node): void =>
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['src', 'srcdoc'] });
  watch(document);
  const attachShadow = Object.getOwnPropertyDescriptor(Element.prototype, 'attachShadow')?.value as (
    this: Element,
    init: ShadowRootInit,
  ) => ShadowRoot;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    const root = attachShadow.call(this, init);
    watch(root);
    return root;
  };
}

/** The guard as the view's first script. */
export const WEBRTC_GUARD = `<script>(${guardWebRtc.toString()})()</script>`;

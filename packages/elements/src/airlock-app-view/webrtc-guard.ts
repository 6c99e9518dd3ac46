/**
 * Runs first in a view's document, before any script of the view's: it takes WebRTC away. No policy Chromium 156
 * enforces stops a peer connection (`connect-src` does not govern it, and the `webrtc` directive is "unrecognized"),
 * so a view could otherwise send UDP wherever it likes. The guard deletes the `RTC*` constructors from the view's
 * window, and removes every frame the view adds that would get a fresh window of its own without a fetch (`srcdoc`,
 * `about:blank`, `javascript:`), in the document and in every shadow root it can see (made with `attachShadow`, or
 * open ones parsed from markup), before that frame's document loads: such a frame inherits the view's policy, inline
 * scripts included, but not this guard. A frame of an origin the resource declared (`frameDomains`) stays, as
 * declared. Every built-in the guard calls is taken before the view runs, so a view that replaces one (say
 * `Element.prototype.remove`) does not disarm it.
 *
 * What remains: a closed shadow root parsed from markup (`<template shadowrootmode="closed">`) is out of the guard's
 * sight, and a view that navigates its own frame to a `data:` document keeps the view's policy but not the guard
 * (the sandbox proxy drops the frame once it sees the second load, after that document has run). Only the browser can
 * close those: the `webrtc` directive where it is enforced, or a managed browser's WebRTC policy
 * (`WebRtcIPHandling: disable_non_proxied_udp`). Self-contained: it is sent as its source text.
 */
function guardWebRtc(): void {
  const view = window as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(view)) {
    if (/^(webkit)?RTC/.test(name)) delete view[name];
  }
  // Taken now, called through Reflect.apply: what the view later puts on a prototype is never what runs here.
  type Native = (...args: never[]) => unknown;
  const apply = Object.getOwnPropertyDescriptor(Reflect, 'apply')?.value as typeof Reflect.apply;
  const part = (proto: object, name: string, key: 'get' | 'value') =>
    Reflect.get(Object.getOwnPropertyDescriptor(proto, name) ?? {}, key) as Native;
  const getter = (proto: object, name: string) => part(proto, name, 'get');
  const method = (proto: object, name: string) => part(proto, name, 'value');
  const ELEMENT_NODE = 1;
  const nodeType = getter(Node.prototype, 'nodeType');
  const tagName = getter(Element.prototype, 'tagName');
  const shadowRoot = getter(Element.prototype, 'shadowRoot');
  const getAttribute = method(Element.prototype, 'getAttribute');
  const hasAttribute = method(Element.prototype, 'hasAttribute');
  const remove = method(Element.prototype, 'remove');
  const elementQuery = method(Element.prototype, 'querySelectorAll');
  const fragmentQuery = method(DocumentFragment.prototype, 'querySelectorAll');
  const listLength = getter(NodeList.prototype, 'length');
  const listItem = method(NodeList.prototype, 'item');
  const observe = method(MutationObserver.prototype, 'observe');
  const test = method(RegExp.prototype, 'test');
  const Url = URL;
  const protocol = getter(URL.prototype, 'protocol');
  const baseUri = getter(Node.prototype, 'baseURI');
  const recordType = getter(MutationRecord.prototype, 'type');
  const recordTarget = getter(MutationRecord.prototype, 'target');
  const recordAdded = getter(MutationRecord.prototype, 'addedNodes');
  const has = method(WeakSet.prototype, 'has');
  const add = method(WeakSet.prototype, 'add');
  const FRAME = /^I?FRAME$/;
  const FETCHED = /^https?:$/;

  /** True for a frame that loads a document from the network (an origin the policy may allow), not one made here. */
  const fetched = (frame: Element): boolean => {
    if (apply(hasAttribute, frame, ['srcdoc']) as boolean) return false;
    const src = apply(getAttribute, frame, ['src']) as string | null;
    if (src === null) return false;
    try {
      const url = new Url(src, apply(baseUri, frame, []) as string);
      return apply(test, FETCHED, [apply(protocol, url, [])]) as boolean;
    } catch {
      return false;
    }
  };
  const sweepList = (list: NodeList): void => {
    const length = apply(listLength, list, []) as number;
    for (let i = 0; i < length; i++) sweep(apply(listItem, list, [i]) as Node);
  };
  /** Removes the frames of `node`, its subtree and the open shadow roots in it; watches those roots from now on. */
  const sweep = (node: Node): void => {
    if (apply(nodeType, node, []) !== ELEMENT_NODE) return;
    const element = node as Element;
    if (apply(test, FRAME, [apply(tagName, element, [])]) as boolean) {
      if (!fetched(element)) apply(remove, element, []);
      return;
    }
    const root = apply(shadowRoot, element, []) as ShadowRoot | null;
    if (root !== null) {
      watch(root);
      sweepList(apply(fragmentQuery, root, ['*']) as NodeList);
    }
    sweepList(apply(elementQuery, element, ['iframe,frame']) as NodeList);
    // Shadow hosts inside the subtree: their roots hold elements the query above does not reach.
    const all = apply(elementQuery, element, ['*']) as NodeList;
    const length = apply(listLength, all, []) as number;
    for (let i = 0; i < length; i++) {
      const inner = apply(shadowRoot, apply(listItem, all, [i]) as Element, []) as ShadowRoot | null;
      if (inner !== null) {
        watch(inner);
        sweepList(apply(fragmentQuery, inner, ['*']) as NodeList);
      }
    }
  };
  const observer = new MutationObserver((records) => {
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      if (apply(recordType, record, []) === 'attributes') sweep(apply(recordTarget, record, []) as Node);
      else sweepList(apply(recordAdded, record, []) as NodeList);
    }
  });
  const watched = new WeakSet<Node>();
  const watch = (root: Node): void => {
    if (apply(has, watched, [root]) as boolean) return;
    apply(add, watched, [root]);
    apply(observe, observer, [
      root,
      { childList: true, subtree: true, attributes: true, attributeFilter: ['src', 'srcdoc'] },
    ]);
  };
  watch(document);
  const attachShadow = method(Element.prototype, 'attachShadow');
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    const root = apply(attachShadow, this, [init]) as ShadowRoot;
    watch(root);
    return root;
  };
}

/** The guard as the view's first script. */
export const WEBRTC_GUARD = `<script>(${guardWebRtc.toString()})()</script>`;

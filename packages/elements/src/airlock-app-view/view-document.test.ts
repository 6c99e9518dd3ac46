import { describe, expect, it } from 'vitest';
import { viewCsp, viewDocument } from './view-document.js';
import { WEBRTC_GUARD } from './webrtc-guard.js';

describe("a view's Content-Security-Policy", () => {
  it('allows nothing beyond inline code when the resource declares no origins', () => {
    const policy = viewCsp(undefined);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("script-src 'unsafe-inline'");
    expect(policy).not.toContain('*');
    expect(policy).toContain("webrtc 'block'");
  });

  it('adds the declared origins to their directives only, and drops entries that are not origins', () => {
    const policy = viewCsp({
      connectDomains: ['https://api.example.com', "* 'unsafe-eval'"],
      resourceDomains: ['https://*.cdn.example'],
      frameDomains: ['https://maps.example'],
    });
    expect(policy).toContain('connect-src https://api.example.com;');
    expect(policy).toContain("script-src 'unsafe-inline' https://*.cdn.example;");
    expect(policy).toContain('frame-src https://maps.example;');
    expect(policy).not.toContain('unsafe-eval');
  });
});

describe("a view's document", () => {
  it('puts the policy right after the doctype, before any markup of the view', () => {
    const out = viewDocument('<!-- x --><!DOCTYPE html><html><head><script>1</script>', undefined);
    expect(out.startsWith('<!-- x --><!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(out.indexOf('<meta')).toBeLessThan(out.indexOf('<script>1'));
  });

  it('adds a doctype and the policy to a fragment', () => {
    expect(viewDocument('<p>hi</p>', undefined)).toMatch(
      /^<!doctype html><meta http-equiv="Content-Security-Policy" content="[^"]+"><script>.+<\/script><p>hi<\/p>$/s,
    );
  });

  it("runs the WebRTC guard before the view's own first script", () => {
    const out = viewDocument('<!doctype html><script>new RTCPeerConnection()</script>', undefined);
    const guard = out.indexOf(WEBRTC_GUARD);
    expect(guard).toBeGreaterThan(out.indexOf('<meta'));
    expect(guard).toBeLessThan(out.indexOf('<script>new RTCPeerConnection'));
  });
});

import { describe, expect, it } from 'vitest';
import { inspectUrl } from './url-safety.js';

describe('inspectUrl', () => {
  it('keeps the whole URL and its host for a plain https link', () => {
    const result = inspectUrl('https://example.com/connect?session=abc#x');
    expect(result).toEqual({
      ok: true,
      inspection: {
        url: 'https://example.com/connect?session=abc#x',
        host: 'example.com',
        displayHost: 'example.com',
        scheme: 'https',
        https: true,
        punycode: false,
        warnings: [],
      },
    });
  });

  it('flags plain http, punycode hosts, credentials and IP addresses', () => {
    const http = inspectUrl('http://example.com/');
    expect(http.ok && http.inspection.warnings).toEqual(['not_https']);
    const puny = inspectUrl('https://xn--pypal-4ve.com/login');
    expect(puny.ok && puny.inspection).toMatchObject({
      punycode: true,
      displayHost: 'pаypal.com',
      warnings: ['punycode'],
    });
    const creds = inspectUrl('https://user:pw@example.com/');
    expect(creds.ok && creds.inspection.warnings).toEqual(['credentials_in_url']);
    const ip = inspectUrl('https://10.0.0.1/');
    expect(ip.ok && ip.inspection.warnings).toEqual(['ip_address']);
  });

  it.each([
    ['javascript:alert(1)', /only http and https URLs can be opened, not javascript:/],
    ['file:///etc/passwd', /not file:/],
    ['not a url', /not a valid URL/],
    ['', /has no URL/],
    [42, /has no URL/],
  ])('refuses %j', (url, reason) => {
    const result = inspectUrl(url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

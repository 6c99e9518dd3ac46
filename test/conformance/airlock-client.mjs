// The client the MCP conformance suite drives: Airlock's host, as an application embeds it, against the scenario's
// server at the URL the suite appends. It signs in through host.auth.signIn with a headless surface (the scenario's
// authorization server approves at once, so following its redirect is the user's consent), lists the tools and
// calls each, accepting each form as it opens (with its defaults). Usage, from the repository after `npm run build`:
//   npx -y node@22 node_modules/.bin/conformance client --command "node test/conformance/airlock-client.mjs" \
//     --scenario auth/metadata-default
// MCP_CONFORMANCE_SCENARIO names the scenario; MCP_CONFORMANCE_CONTEXT carries a pre-registered client's id and
// secret or private key where the scenario has one.
import { randomBytes } from 'node:crypto';
import { createHost, MemoryStore, TokenVault } from '@airlock/core';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const scope = { userId: 'conformance', workspaceId: 'default', conversationId: 'main' };

/** The server's oauth settings: a pre-registered client (secret or key) when the scenario gives one. */
function oauth() {
  if (context.client_id === undefined) return undefined;
  const machine = scenario.startsWith('auth/client-credentials');
  return {
    grant: machine ? 'client_credentials' : 'authorization_code',
    clientId: context.client_id,
    ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
    ...(context.private_key_pem === undefined
      ? {}
      : { privateKey: context.private_key_pem, privateKeyAlgorithm: context.signing_algorithm ?? 'RS256' }),
  };
}

const host = createHost({
  servers: { mcpServers: { s: { url, ...(oauth() === undefined ? {} : { oauth: oauth() }) } } },
  store: new MemoryStore(),
  surface: {
    askPermission: async () => 'allow_once',
    // A person accepting the form unchanged: the values it opened with (the schema's defaults, as the host fills them).
    elicit: async (request) =>
      request.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { ...request.form?.initialValues } },
    authorize: async (request) => {
      const response = await fetch(request.authorizationUrl, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (location === null) throw new Error(`the authorization server answered ${response.status} without a redirect`);
      return new URL(location, request.authorizationUrl);
    },
  },
  // As a host served over https offers its Client ID Metadata Document (the console does at its public URL); the
  // suite's authorization server knows this one, which it cannot fetch.
  auth: {
    vault: TokenVault.fromKey(randomBytes(32)),
    redirectUrl: 'http://127.0.0.1:8919/callback',
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  },
});
try {
  await host.servers.settled();
  let server = host.servers.list({ scope }).find((s) => s.id === 's');
  if (server?.state === 'needs_auth') {
    await host.auth.signIn({ scope, serverId: 's' });
    await host.servers.settled();
    server = host.servers.list({ scope }).find((s) => s.id === 's');
  }
  console.log(`server s: ${server?.state}${server?.error === undefined ? '' : ` (${server.error})`}`);
  for (const tool of host.tools.list({ audience: 'model', scope })) {
    const args = tool.name.endsWith('add_numbers') ? { a: 1, b: 2 } : {};
    const result = await host.invoke({ scope, caller: { kind: 'model' }, tool: tool.name, args });
    console.log(`${tool.name}: ${result.outcome}`);
  }
} finally {
  await host.close();
}

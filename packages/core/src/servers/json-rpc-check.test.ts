import { parseJSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { plainJsonRpcMessage } from './json-rpc-check.js';

/** What the SDK's own schema makes of a message: the message it hands back, or that it refused it. */
function sdk(value: unknown): { ok: true; message: unknown } | { ok: false } {
  try {
    return { ok: true, message: parseJSONRPCMessage(value) };
  } catch {
    return { ok: false };
  }
}

// Messages a server may write, each as JSON text (so that every case is what a line of stdout parses to).
const CORPUS: readonly string[] = [
  // Results.
  '{"jsonrpc":"2.0","id":1,"result":{}}',
  '{"jsonrpc":"2.0","id":"a-1","result":{"content":[{"type":"text","text":"hi"}]}}',
  '{"result":{"content":[{"type":"text","text":"Echo: hello"}]},"jsonrpc":"2.0","id":1234}',
  '{"jsonrpc":"2.0","id":0,"result":{"tools":[],"nextCursor":"x"}}',
  '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"progressToken":1}}}',
  '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":1}}}}',
  '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"x":1},"content":[]}}',
  // Requests and notifications from the server.
  '{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}}',
  '{"jsonrpc":"2.0","id":8,"method":"ping"}',
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1,"total":2}}',
  '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
  '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x","_meta":{"a":1}}}',
  '{"jsonrpc":"2.0","id":9,"method":"x","params":{"_meta":{"progressToken":"t"}}}',
  // Error responses (always the SDK's).
  '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}',
  '{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse","data":{"x":1},"extra":true}}',
  // Refused by the SDK: each must be refused here too (or left to the SDK).
  '{"jsonrpc":"2.0","id":1,"result":[]}',
  '{"jsonrpc":"2.0","id":1,"result":null}',
  '{"jsonrpc":"2.0","id":1,"result":"text"}',
  '{"jsonrpc":"1.0","id":1,"result":{}}',
  '{"id":1,"result":{}}',
  '{"jsonrpc":"2.0","result":{}}',
  '{"jsonrpc":"2.0","id":1.5,"result":{}}',
  '{"jsonrpc":"2.0","id":true,"result":{}}',
  '{"jsonrpc":"2.0","id":null,"result":{}}',
  '{"jsonrpc":"2.0","id":{"a":1},"result":{}}',
  '{"jsonrpc":"2.0","id":9007199254740993,"result":{}}',
  '{"jsonrpc":"2.0","id":1,"result":{},"extra":1}',
  '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","result":{}}',
  '{"jsonrpc":"2.0","method":3}',
  '{"jsonrpc":"2.0","method":"x","params":[1,2]}',
  '{"jsonrpc":"2.0","method":"x","params":null}',
  '{"jsonrpc":"2.0","method":"x","params":"p"}',
  '{"jsonrpc":"2.0","method":"x","extra":1}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{},"extra":1}',
  '{"jsonrpc":"2.0"}',
  '[{"jsonrpc":"2.0","id":1,"result":{}}]',
  '"text"',
  'null',
  '42',
];

describe('plainJsonRpcMessage', () => {
  it.each(CORPUS)('takes only what the SDK takes, as the SDK hands it back: %s', (text) => {
    const value: unknown = JSON.parse(text);
    const quick = plainJsonRpcMessage(value);
    const wire = sdk(JSON.parse(text));
    if (quick !== undefined) {
      // Whatever the quick check takes, the SDK takes too, with the same content.
      expect(wire.ok).toBe(true);
      if (wire.ok) expect(quick).toStrictEqual(wire.message);
    }
  });

  it('takes the shapes of an ordinary call by hand, and leaves errors and read `_meta` to the SDK', () => {
    const taken = (text: string) => plainJsonRpcMessage(JSON.parse(text)) !== undefined;
    expect(taken('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}')).toBe(true);
    expect(taken('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}')).toBe(
      true,
    );
    expect(taken('{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"message":"m"}}')).toBe(true);
    expect(taken('{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}')).toBe(false);
    expect(taken('{"jsonrpc":"2.0","id":1,"result":{"_meta":{}}}')).toBe(false);
    expect(taken('{"jsonrpc":"2.0","id":1,"result":{},"x":1}')).toBe(false);
  });

  it('refuses every message of the corpus the SDK refuses', () => {
    const refused = CORPUS.filter((text) => !sdk(JSON.parse(text)).ok);
    expect(refused.length).toBeGreaterThan(20);
    for (const text of refused) expect(plainJsonRpcMessage(JSON.parse(text)), text).toBeUndefined();
  });
});

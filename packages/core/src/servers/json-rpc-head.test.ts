import { describe, expect, it } from 'vitest';
import { readMessageHead } from './json-rpc-head.js';

describe('readMessageHead', () => {
  it('reads the id of a response that gives it first', () => {
    expect(readMessageHead('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"aaa')).toEqual({
      shape: 'response',
      id: 7,
    });
    expect(readMessageHead(' { "id" : "call-1" , "error": {"code":')).toEqual({ shape: 'response', id: 'call-1' });
  });

  it('does not take an id nested in the result for the message id (the SDK writes its id last)', () => {
    expect(readMessageHead('{"result":{"content":[{"type":"text","id":3,"text":"{\\"id\\":4,')).toEqual({
      shape: 'response',
    });
  });

  it('tells a request or notification from the server apart from a response', () => {
    expect(readMessageHead('{"method":"notifications/progress","params":{"progressToken":1,"message":"')).toEqual({
      shape: 'request',
    });
  });

  it('calls a line that does not open a JSON object garbage', () => {
    expect(readMessageHead('\u001b[31mpanic\u001b[0m at the disco')).toEqual({ shape: 'not_json' });
    expect(readMessageHead('Server listening on stdio')).toEqual({ shape: 'not_json' });
  });

  it('says unknown when the head ends before any telling member', () => {
    expect(readMessageHead('{"jsonrpc":"2.0","extra":"aaaaaaaaaaaaaaa')).toEqual({ shape: 'unknown' });
    expect(readMessageHead('{"id":12')).toEqual({ shape: 'unknown' });
  });
});

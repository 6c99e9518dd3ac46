/**
 * `response` with its body passed through unchanged, calling `end` once when the body is over: read to its end,
 * failed, or cancelled (the client went away: the HTTP listener cancels the body on close). A response without a
 * body is over at once. This is how the gateway knows a 2026-07-28 request, or a listen stream, no longer needs
 * what it holds for it.
 */
export function followedBody(response: Response, end: () => void): Response {
  const body = response.body;
  if (body === null) {
    end();
    return response;
  }
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    end();
  };
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const followed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        finish();
        controller.close();
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(followed, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

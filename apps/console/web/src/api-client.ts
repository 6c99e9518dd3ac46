/** An error the console's API answered with: the status and its `{ error: { code, message } }`. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Calls the console's JSON API with the session cookie; a non-2xx answer throws an `ApiFailure`. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json: unknown = text === '' ? {} : JSON.parse(text);
  if (!response.ok) {
    const error = (json as { error?: Record<string, unknown> }).error ?? {};
    const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
    throw new ApiFailure(
      response.status,
      text(error['code'], String(response.status)),
      text(error['message'], response.statusText),
      error,
    );
  }
  return json as T;
}

/**
 * A function that POSTs JSON to the service as the bench's user and returns
 * the parsed answer; any other status than 2xx fails the measurement, named
 * by `label`.
 */
export function jsonPoster(base: string, authorization: string, label: string) {
  return async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${label}: POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  };
}

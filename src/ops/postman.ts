import { convertV2, type CollectionResult } from 'openapi-to-postmanv2';

export interface PostmanVariable {
  key: string;
  value: string;
  type: 'string';
  description?: string;
}

export interface PostmanAuth {
  type: 'bearer';
  bearer: Array<{ key: 'token'; value: string; type: 'string' }>;
}

export interface PostmanRequest {
  method: string;
  url: { raw?: string; host?: string[]; path?: string[]; query?: Array<{ key: string; disabled?: boolean }> };
  auth?: PostmanAuth | null;
  body?: { mode: string; raw?: string };
}

export interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
}

export interface PostmanCollection {
  info: { name: string; schema: string; description?: unknown };
  item: PostmanItem[];
  variable: PostmanVariable[];
  auth: PostmanAuth;
}

export const BEARER_TOKEN_VARIABLE = 'bearerToken';

/**
 * The API as a Postman collection: a folder per tag, each request with its
 * operation's example body. Every request inherits the collection's bearer
 * authentication, whose token is the `bearerToken` variable, left empty for
 * the user to fill in; `baseUrl` is where the service answers.
 */
export async function postmanCollection(document: object, baseUrl: string): Promise<PostmanCollection> {
  const result = await new Promise<CollectionResult>((resolve, reject) =>
    convertV2(
      { type: 'json', data: document },
      {
        folderStrategy: 'Tags',
        // Parameters and bodies from the document's examples, not placeholders made up from their schemas.
        parametersResolution: 'Example',
        // Listed but off: a made-up cursor or filter would only be refused.
        enableOptionalParameters: false,
        alwaysInheritAuthentication: true,
      },
      (error, converted) => (error || !converted ? reject(new Error(error?.message)) : resolve(converted)),
    ),
  );
  const collection = result.output?.[0]?.data as Omit<PostmanCollection, 'variable' | 'auth'> | undefined;
  if (!result.result || !collection) {
    throw new Error(`The OpenAPI document could not be converted: ${result.reason ?? 'no collection'}`);
  }
  // The converter names the token variable but declares only the server's.
  return {
    ...collection,
    variable: [
      { key: 'baseUrl', value: baseUrl, type: 'string', description: 'Where the service answers' },
      {
        key: BEARER_TOKEN_VARIABLE,
        value: '',
        type: 'string',
        description: 'An API token, such as one made by `npm run cli -- tokens create --email <email>`',
      },
    ],
    auth: { type: 'bearer', bearer: [{ key: 'token', value: `{{${BEARER_TOKEN_VARIABLE}}}`, type: 'string' }] },
  };
}

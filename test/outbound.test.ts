import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imageDimensions, sniffContentType } from '../src/content/files/image.js';
import { BadRequestError } from '../src/core/errors.js';
import { createOutboundFetcher, isPublicAddress, OutboundError } from '../src/core/outbound.js';

describe('isPublicAddress', () => {
  const publicAddresses = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  const refusedAddresses = [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b:1::808:808',
    '2002:7f00:1::1',
    '2002:c0a8:101::1',
    // Teredo with the client 10.0.0.1 stored inverted (f5ff:fffe).
    '2001:0:808:808::f5ff:fffe',
    '127.1',
    '2130706433',
    'localhost',
    'example.com',
    '',
    'not an address',
    '1.2.3.4.5',
  ];

  it.each(publicAddresses)('accepts the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each(refusedAddresses)('refuses %j', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe('the outbound fetcher', () => {
  let server: Server;
  let base: string;
  let port: number;
  let requests: string[] = [];
  const hanging: ServerResponse[] = [];

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://test');
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const left = Number(redirect[1]);
      if (left === 0) res.writeHead(200, { 'content-type': 'text/plain' }).end('arrived');
      else res.writeHead(left % 2 === 0 ? 301 : 307, { location: `/redirect/${left - 1}` }).end();
      return;
    }
    switch (url.pathname) {
      case '/hello':
        res
          .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
          .end(`hello ${req.headers['user-agent']} ${req.headers.accept}`);
        return;
      case '/relative':
        res.writeHead(302, { location: 'hello?from=relative' }).end();
        return;
      case '/to-ftp':
        res.writeHead(302, { location: 'ftp://files.example.com/secret' }).end();
        return;
      case '/to-credentials':
        res.writeHead(302, { location: `http://user:pass@127.0.0.1:${port}/hello` }).end();
        return;
      case '/announced-large':
        res
          .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '5000' })
          .end(Buffer.alloc(5000));
        return;
      case '/streamed-large': {
        // No Content-Length: chunked, so only counting while reading can stop it.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        let sent = 0;
        const timer = setInterval(() => {
          if (res.destroyed || sent >= 50) {
            clearInterval(timer);
            res.end();
            return;
          }
          res.write(Buffer.alloc(1000, 'x'));
          sent += 1;
        }, 2);
        return;
      }
      case '/never':
        hanging.push(res);
        return;
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        hanging.push(res);
        return;
      case '/gzip':
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync(JSON.stringify({ accepted: req.headers['accept-encoding'] })));
        return;
      case '/gzip-bomb':
        res
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.alloc(1_000_000)));
        return;
      case '/bad-gzip':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end('this is not gzip');
        return;
      case '/empty-gzip':
        res.writeHead(204, { 'content-encoding': 'gzip' }).end();
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing');
        return;
      case '/echo': {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () =>
          res
            .writeHead(200, { 'content-type': 'text/plain', 'x-seen': String(req.headers['x-token']) })
            .end(`${req.method} ${req.headers['content-type']} ${Buffer.concat(chunks).toString()}`),
        );
        return;
      }
      default:
        res.writeHead(500).end();
    }
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      route(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    requests = [];
  });

  const open = createOutboundFetcher({
    allowPrivate: true,
    timeoutMs: 5000,
    maxBytes: 1_048_576,
    userAgent: 'quire-test',
  });
  const guarded = createOutboundFetcher({ allowPrivate: false, timeoutMs: 5000, maxBytes: 1_048_576 });

  async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as OutboundError).statusCode).toBe(400);
    return error as OutboundError;
  }

  it('fetches a body and reports its content type when private addresses are allowed', async () => {
    const response = await open.fetch(`${base}/hello`, { accept: 'text/plain' });
    expect(response).toEqual({
      url: `${base}/hello`,
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      headers: expect.objectContaining({ 'content-type': 'text/plain; charset=utf-8' }),
      body: Buffer.from('hello quire-test text/plain'),
    });
  });

  it('resolves host names through its own lookup', async () => {
    const response = await open.fetch(`http://localhost:${port}/hello`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toMatch(/^hello /);
  });

  it.each([
    ['a loopback IPv4 literal', (p: number) => `http://127.0.0.1:${p}/hello`, `http://127.0.0.1:PORT/`],
    ['a name that resolves to loopback', (p: number) => `http://localhost:${p}/hello`, `http://localhost:PORT/`],
    ['a loopback IPv6 literal', (p: number) => `http://[::1]:${p}/hello`, `http://[::1]:PORT/`],
    ['an IPv4-mapped loopback', (p: number) => `http://[::ffff:127.0.0.1]:${p}/hello`, `http://[::ffff:7f00:1]:PORT/`],
  ])('refuses %s without sending a request', async (_, url, named) => {
    const error = await refusal(guarded.fetch(url(port)));
    expect(error.message).toBe(
      `The URL ${named.replace('PORT', String(port))} resolves to a private address, which this service does not fetch`,
    );
    expect(error.failure).toBe('refused');
    expect(requests).toEqual([]);
  });

  it('refuses an IPv4 address spelled as a number, which URL parsing turns into 127.0.0.1', async () => {
    const error = await refusal(guarded.fetch(`http://2130706433:${port}/hello`));
    expect(error.message).toBe(
      `The URL http://127.0.0.1:${port}/ resolves to a private address, which this service does not fetch`,
    );
    expect(requests).toEqual([]);
  });

  it.each([
    ['ftp://example.com/file', 'Only http and https URLs can be fetched'],
    ['file:///etc/passwd', 'Only http and https URLs can be fetched'],
    ['javascript:alert(1)', 'Only http and https URLs can be fetched'],
    ['/relative/path', 'The URL is not a valid absolute URL; only http and https URLs can be fetched'],
    [
      'http://user:secret@example.com/',
      'The URL http://example.com/ contains credentials, which this service does not send',
    ],
  ])('refuses %s', async (url, message) => {
    const error = await refusal(open.fetch(url));
    expect(error.message).toBe(message);
    expect(error.failure).toBe('refused');
  });

  it('follows redirects, relative ones too, and reports the final URL', async () => {
    const chain = await open.fetch(`${base}/redirect/5`);
    expect(chain).toMatchObject({ url: `${base}/redirect/0`, status: 200 });
    expect(chain.body.toString()).toBe('arrived');
    expect(requests).toEqual([
      '/redirect/5',
      '/redirect/4',
      '/redirect/3',
      '/redirect/2',
      '/redirect/1',
      '/redirect/0',
    ]);

    const relative = await open.fetch(`${base}/relative`);
    expect(relative).toMatchObject({ url: `${base}/hello?from=relative`, status: 200 });
  });

  it('gives up after five redirects', async () => {
    const error = await refusal(open.fetch(`${base}/redirect/6`));
    expect(error.message).toBe(`The URL http://127.0.0.1:${port}/ redirected more than 5 times`);
    expect(requests).toHaveLength(6);
  });

  it('refuses a redirect to a scheme other than http and https', async () => {
    const error = await refusal(open.fetch(`${base}/to-ftp`));
    expect(error.message).toBe(
      `The URL http://127.0.0.1:${port}/ redirected to a ftp: URL; only http and https URLs can be fetched`,
    );
    expect(error.message).not.toContain('secret');
  });

  it('refuses a redirect to a URL with credentials', async () => {
    const error = await refusal(open.fetch(`${base}/to-credentials`));
    expect(error.message).toBe(
      `The URL http://127.0.0.1:${port}/ contains credentials, which this service does not send`,
    );
    expect(requests).toEqual(['/to-credentials']);
  });

  it('refuses a body whose Content-Length is over the limit', async () => {
    const error = await refusal(open.fetch(`${base}/announced-large`, { maxBytes: 4096 }));
    expect(error.message).toBe(`The response from http://127.0.0.1:${port}/ is over the 4096-byte limit`);
    expect(error.failure).toBe('too-large');
  });

  it('stops reading a chunked body as soon as it passes the limit', async () => {
    const error = await refusal(open.fetch(`${base}/streamed-large`, { maxBytes: 4096 }));
    expect(error.message).toBe(`The response from http://127.0.0.1:${port}/ is over the 4096-byte limit`);
    // Under the default limit the same body arrives whole.
    const whole = await open.fetch(`${base}/streamed-large`);
    expect(whole.body.length).toBe(50_000);
  });

  it('gives up on a server that never answers', async () => {
    const quick = createOutboundFetcher({ allowPrivate: true, timeoutMs: 150, maxBytes: 1024 });
    const error = await refusal(quick.fetch(`${base}/never`));
    expect(error.message).toBe(`The URL http://127.0.0.1:${port}/ did not answer within 150 ms`);
    expect(error.failure).toBe('timeout');
  });

  it('takes a shorter time limit for one fetch, never a longer one', async () => {
    const shortened = await refusal(open.fetch(`${base}/never`, { timeoutMs: 150 }));
    expect(shortened.message).toBe(`The URL http://127.0.0.1:${port}/ did not answer within 150 ms`);
    expect(shortened.failure).toBe('timeout');
    const quick = createOutboundFetcher({ allowPrivate: true, timeoutMs: 150, maxBytes: 1024 });
    const capped = await refusal(quick.fetch(`${base}/never`, { timeoutMs: 60_000 }));
    expect(capped.message).toBe(`The URL http://127.0.0.1:${port}/ did not answer within 150 ms`);
  });

  it('counts the time spent reading the body against the timeout', async () => {
    const quick = createOutboundFetcher({ allowPrivate: true, timeoutMs: 150, maxBytes: 1024 });
    const error = await refusal(quick.fetch(`${base}/slow-body`));
    expect(error.message).toBe(`The URL http://127.0.0.1:${port}/ did not answer within 150 ms`);
  });

  it('decompresses gzip bodies and asks for compression', async () => {
    const response = await open.fetch(`${base}/gzip`);
    expect(response.contentType).toBe('application/json');
    expect(JSON.parse(response.body.toString())).toEqual({ accepted: 'gzip, deflate, br' });
  });

  it('counts the limit on decompressed bytes', async () => {
    const error = await refusal(open.fetch(`${base}/gzip-bomb`, { maxBytes: 10_000 }));
    expect(error.message).toBe(`The response from http://127.0.0.1:${port}/ is over the 10000-byte limit`);
  });

  it('reports a body that cannot be decompressed', async () => {
    const error = await refusal(open.fetch(`${base}/bad-gzip`));
    expect(error.message).toBe(`The response from http://127.0.0.1:${port}/ could not be decompressed`);
  });

  it('accepts an empty body labelled as compressed', async () => {
    const response = await open.fetch(`${base}/empty-gzip`);
    expect(response).toMatchObject({ status: 204, body: Buffer.alloc(0) });
  });

  it('returns a non-2xx status for the caller to judge', async () => {
    const response = await open.fetch(`${base}/missing`);
    expect(response).toEqual({
      url: `${base}/missing`,
      status: 404,
      contentType: 'text/plain',
      headers: expect.objectContaining({ 'content-type': 'text/plain' }),
      body: Buffer.from('no such thing'),
    });
  });

  it('sends a POST with its headers and body, and gives every header of the answer', async () => {
    const response = await open.request(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-upload-pack-request', 'x-token': 'abc' },
      body: Buffer.from('want 0000'),
    });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('POST application/x-git-upload-pack-request want 0000');
    expect(response.headers['x-seen']).toBe('abc');
  });

  it('does not follow a redirect of a POST, whose body would not be sent again: the redirect is the answer', async () => {
    const response = await open.request(`${base}/relative`, { method: 'POST', body: Buffer.from('x') });
    expect(response).toMatchObject({
      status: 302,
      headers: expect.objectContaining({ location: 'hello?from=relative' }),
    });
    expect(requests).toEqual(['/relative']);
    const followed = await open.request(`${base}/relative`, { method: 'GET' });
    expect(followed).toMatchObject({ status: 200, url: `${base}/hello?from=relative` });
  });

  it('guards a request as it guards a fetch: no private address, no credentials in the URL, the byte limit', async () => {
    const privateError = await refusal(guarded.request(`${base}/echo`, { method: 'POST', body: Buffer.from('x') }));
    expect(privateError.failure).toBe('refused');
    const credentials = await refusal(open.request(`http://a:b@127.0.0.1:${port}/echo`, { method: 'POST' }));
    expect(credentials.failure).toBe('refused');
    const large = await refusal(open.request(`${base}/announced-large`, { method: 'GET', maxBytes: 100 }));
    expect(large.failure).toBe('too-large');
    expect(requests).toEqual(['/announced-large']);
  });

  it('reports a refused connection without internal detail', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusal(open.fetch(`http://127.0.0.1:${closedPort}/`));
    expect(error.message).toBe(`The server at http://127.0.0.1:${closedPort}/ refused the connection`);
    expect(error.failure).toBe('failed');
  });
});

function pngBytes(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const pixels = Buffer.alloc(height * (1 + width * 4)); // filter byte + transparent pixels, per row
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(pixels)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

function gifBytes(width: number, height: number): Uint8Array {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen.set([0x80, 0, 0], 4); // a two-colour global table
  const image = Buffer.alloc(10);
  image.writeUInt8(0x2c, 0);
  image.writeUInt16LE(width, 5);
  image.writeUInt16LE(height, 7);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('GIF89a', 'latin1'),
      screen,
      Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]),
      image,
      Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]),
    ]),
  );
}

describe('imageDimensions', () => {
  it('measures a PNG and a GIF', () => {
    expect(imageDimensions(pngBytes(3, 2))).toEqual({ width: 3, height: 2 });
    expect(imageDimensions(gifBytes(5, 7))).toEqual({ width: 5, height: 7 });
  });

  it('measures an SVG from its attributes', () => {
    const svg = new TextEncoder().encode(
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"></svg>',
    );
    expect(imageDimensions(svg)).toEqual({ width: 40, height: 20 });
  });

  it('is undefined for anything that is not a measurable image, without throwing', () => {
    expect(imageDimensions(new Uint8Array())).toBeUndefined();
    expect(imageDimensions(new TextEncoder().encode('# A page\n\nSome text.'))).toBeUndefined();
    expect(imageDimensions(pngBytes(3, 2).slice(0, 20))).toBeUndefined();
    // A view on a larger buffer must not be measured from the bytes after its end.
    expect(imageDimensions(pngBytes(3, 2).subarray(0, 20))).toBeUndefined();
    expect(imageDimensions(new TextEncoder().encode('BM is the first word here, not a bitmap header'))).toBeUndefined();
    expect(imageDimensions(new TextEncoder().encode('# Icons\n\n<svg width="10" height="10"></svg>'))).toBeUndefined();
    expect(imageDimensions(Uint8Array.from({ length: 64 }, (_, i) => (i * 37) % 256))).toBeUndefined();
  });
});

describe('sniffContentType', () => {
  it('trusts the bytes of an image over its name', () => {
    expect(sniffContentType(pngBytes(1, 1), 'picture.jpg')).toBe('image/png');
    expect(sniffContentType(gifBytes(1, 1), 'no-extension')).toBe('image/gif');
  });

  it.each([
    ['logo.svg', 'image/svg+xml'],
    ['photo.JPEG', 'image/jpeg'],
    ['photo.jpg', 'image/jpeg'],
    ['manual.pdf', 'application/pdf'],
    ['notes.txt', 'text/plain'],
    ['README.md', 'text/markdown'],
    ['data.json', 'application/json'],
    ['openapi.yaml', 'application/yaml'],
    ['openapi.yml', 'application/yaml'],
    ['table.csv', 'text/csv'],
    ['archive.zip', 'application/zip'],
    ['demo.mp4', 'video/mp4'],
    ['program.exe', 'application/octet-stream'],
    ['no-extension', 'application/octet-stream'],
    ['', 'application/octet-stream'],
  ])('names %j as %s from its extension', (name, type) => {
    expect(sniffContentType(new TextEncoder().encode('plain text'), name)).toBe(type);
  });
});

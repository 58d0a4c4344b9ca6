import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface Received {
  to: string[];
  raw: string;
}

/** An SMTP server on 127.0.0.1 that keeps what it receives, or refuses every recipient. */
export async function smtpServer(refuse = false) {
  const received: Received[] = [];
  const waiting: Array<() => void> = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!refuse) return callback();
      refusals++;
      waiting.splice(0).forEach((wake) => wake());
      return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  /** Resolves once `test` holds, checked after each message or refusal. */
  const until = async (test: () => boolean) => {
    while (!test()) await new Promise<void>((wake) => waiting.push(wake));
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refusals: () => refusals,
    /** The message to `address`, once it has arrived, decoded from quoted-printable. */
    async mailTo(address: string): Promise<string> {
      await until(() => received.some((mail) => mail.to.includes(address)));
      const raw = received.find((mail) => mail.to.includes(address))!.raw;
      return raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    },
    until,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

import { createSocket, type RemoteInfo } from 'node:dgram';
import { once } from 'node:events';
import dnsPacket from 'dns-packet';

/**
 * A real DNS server on 127.0.0.1 (UDP, a port of its own) for the service's
 * resolver: it answers the TXT records a test sets, SERVFAIL for the names a
 * test makes fail, and NXDOMAIN for anything else.
 */
export class TestDnsServer {
  private readonly records = new Map<string, string[]>();
  private readonly failing = new Set<string>();
  private readonly socket = createSocket('udp4');
  port = 0;

  /** The DNS_SERVERS entry that names it. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.socket.on('message', (message, peer) => this.answer(message, peer));
    this.socket.bind(0, '127.0.0.1');
    await once(this.socket, 'listening');
    this.port = this.socket.address().port;
  }

  async stop(): Promise<void> {
    this.socket.close();
    await once(this.socket, 'close');
  }

  /** The TXT records at `name` from now on (none: the name does not exist). */
  setTxt(name: string, values: string[]): void {
    if (values.length === 0) this.records.delete(name.toLowerCase());
    else this.records.set(name.toLowerCase(), values);
  }

  /** Whether looking `name` up fails (SERVFAIL) from now on. */
  setFailing(name: string, failing: boolean): void {
    if (failing) this.failing.add(name.toLowerCase());
    else this.failing.delete(name.toLowerCase());
  }

  private answer(message: Buffer, peer: RemoteInfo): void {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase() ?? '';
    const values = this.records.get(name);
    const base = { type: 'response' as const, id: query.id, questions: query.questions ?? [] };
    let response: Buffer;
    if (this.failing.has(name)) {
      response = dnsPacket.encode({ ...base, flags: dnsPacket.RECURSION_AVAILABLE | 2 });
    } else if (values && question?.type === 'TXT') {
      response = dnsPacket.encode({
        ...base,
        flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE,
        answers: values.map((value) => ({ type: 'TXT' as const, name: question.name, ttl: 0, data: [value] })),
      });
    } else if (values) {
      response = dnsPacket.encode({ ...base, flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE });
    } else {
      response = dnsPacket.encode({
        ...base,
        flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | 3,
      });
    }
    this.socket.send(response, peer.port, peer.address);
  }
}

import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../config.js';

/** A message as the service writes it: plain text, and the same in simple HTML. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Attempts at one message, and the pause before the next, doubling: a busy server gets a second chance. */
const ATTEMPTS = 3;
const FIRST_PAUSE_MS = 500;

/**
 * Sends the service's mail through the operator's SMTP server, after the
 * request that asked for it has been answered: `send` returns at once, a
 * message that fails after its attempts is logged (what it was for, never
 * its content, which holds a secret) and dropped, and close waits for the
 * messages under way.
 */
export class Mailer {
  private readonly transport: Transporter;
  private readonly underWay = new Set<Promise<void>>();

  constructor(
    private readonly config: MailConfig & { smtpUrl: string },
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = nodemailer.createTransport(config.smtpUrl);
  }

  /** Sends in the background; `about` names the message in the log (an invitation's id, never its secret). */
  send(mail: Mail, about: Record<string, string>): void {
    const sending = this.deliver(mail, about).finally(() => this.underWay.delete(sending));
    this.underWay.add(sending);
  }

  /** Waits for the messages under way, then closes the connections. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.underWay]);
    this.transport.close();
  }

  private async deliver(mail: Mail, about: Record<string, string>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.transport.sendMail({ from: this.config.from, ...mail });
        this.log.info({ ...about, attempt }, 'mail sent');
        return;
      } catch (error) {
        if (attempt >= ATTEMPTS) {
          this.log.error({ ...about, attempts: attempt, cause: (error as Error).message }, 'mail could not be sent');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, FIRST_PAUSE_MS * 2 ** (attempt - 1)));
      }
    }
  }
}

/** The mailer for the configuration, or undefined when no SMTP server is configured. */
export function createMailer(config: MailConfig | undefined, log: FastifyBaseLogger): Mailer | undefined {
  if (!config?.smtpUrl) return undefined;
  return new Mailer({ ...config, smtpUrl: config.smtpUrl }, log);
}

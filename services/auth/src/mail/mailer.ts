import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Clock } from '@landscreen/rpc';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

const FROM = 'landscreen <no-reply@landscreen.local>';

/** Over SMTP (`SMTP_URL`, e.g. smtp://127.0.0.1:2525). */
export function smtpMailer(url: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transport.sendMail({ from: FROM, ...message });
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * The embedded default without a mail server: one JSON line per message appended to
 * `DATA_DIR/mailbox.jsonl`, so a developer can sign in by reading the file. `sent_at` is the
 * service's clock, like the link's expiry it sits beside.
 */
export function mailboxMailer(dataDir: string, clock: Clock): Mailer {
  const file = path.join(dataDir, 'mailbox.jsonl');
  return {
    async send(message) {
      await mkdir(dataDir, { recursive: true });
      await appendFile(file, `${JSON.stringify({ from: FROM, ...message, sent_at: clock.now().toISOString() })}\n`);
    },
    async close() {},
  };
}

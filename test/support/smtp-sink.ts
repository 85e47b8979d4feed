import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free port that keeps what it receives, for sign-in mail tests. */
export async function startSmtpSink() {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  // While set, the answers to received messages wait here (holdReplies).
  let held: (() => void)[] | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
        for (const wake of waiters.splice(0)) wake();
        if (held) held.push(() => callback());
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };

  /** The first mail to `email` after `since` messages, when it arrives (the test's timeout bounds the wait). */
  async function waitForMail(email: string, since = 0): Promise<ReceivedMail> {
    for (;;) {
      const found = received.slice(since).find((mail) => mail.to.includes(email));
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitForMail,
    /** Holds back the answer to every message until the returned function is called, as a stalled relay does. */
    holdReplies: () => {
      held = [];
      return () => {
        for (const reply of held?.splice(0) ?? []) reply();
        held = undefined;
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-in token of a mail (quoted-printable soft breaks undone). */
export function tokenOf(mail: ReceivedMail): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /\/auth\/verify\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no sign-in link in:\n${text}`);
  return match[1]!;
}

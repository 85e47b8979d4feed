import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The newest sign-in link mailed to `email` in the embedded mailbox (DATA_DIR/mailbox.jsonl), as a
 * developer reads it. Links are mailed just after the request is answered: this polls the file
 * until the message is there (10 s at most).
 */
export async function mailedLink(dataDir: string, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    let lines: string[] = [];
    try {
      lines = readFileSync(path.join(dataDir, 'mailbox.jsonl'), 'utf8').trim().split('\n');
    } catch {
      // not written yet
    }
    const mail = lines.filter(Boolean).map((line) => JSON.parse(line) as { to: string; text: string }).reverse().find((message) => message.to === email);
    const link = mail?.text.match(/https?:\/\/\S+\/auth\/verify\?token=\S+/)?.[0];
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no sign-in link for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

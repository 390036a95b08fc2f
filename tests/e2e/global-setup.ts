import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { serverErrorsIn } from "../helpers/server-log";
import { startTestSmtp } from "../helpers/smtp";

/**
 * Starts the test SMTP server for the e2e run. Messages are written as JSON files into
 * <E2E_DATA_DIR>/captured-mail so test workers (other processes) can read them back.
 * The teardown fails the run if the server's log (<E2E_DATA_DIR>/server.log) holds a 5xx.
 */
export default async function globalSetup() {
  const dataDir = process.env.E2E_DATA_DIR!;
  const mailDir = path.join(dataDir, "captured-mail");
  mkdirSync(mailDir, { recursive: true });
  const smtp = await startTestSmtp(Number(process.env.E2E_SMTP_PORT));
  const original = smtp.messages.push.bind(smtp.messages);
  let n = 0;
  smtp.messages.push = (...mails) => {
    for (const mail of mails) {
      // Written aside and renamed: a worker polling the folder never reads half a message.
      const file = path.join(mailDir, `${Date.now()}-${n++}.json`);
      writeFileSync(`${file}.partial`, JSON.stringify(mail));
      renameSync(`${file}.partial`, file);
    }
    return original(...mails);
  };
  return async () => {
    await smtp.close();
    const log = path.join(dataDir, "server.log");
    const errors = existsSync(log) ? serverErrorsIn(readFileSync(log, "utf8")) : [];
    if (errors.length > 0) {
      throw new Error(`The server answered with 5xx during the run:\n${errors.join("\n")}`);
    }
  };
}

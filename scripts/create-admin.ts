// `npm run create-admin -- --email admin@example.org --name "Amina Wanjiru"`
// Creates the first admin (or makes an existing account admin) on the configured database:
// PostgreSQL when DATABASE_URL is set, else the embedded database in DATA_DIR. The password is
// read from a hidden prompt, or from the first line of stdin when it is not a terminal:
//   printf '%s\n' "$ADMIN_PASSWORD" | npm run create-admin -- --email … --name …
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { DatabaseLockedError, openDatabase, setDatabase } from "~/db/client.server";
import { recordAudit } from "~/lib/audit.server";
import { upsertUserWithPassword } from "~/lib/auth.server";
import { EnvError, parseEnv, setEnv } from "~/lib/env.server";
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordStrength,
} from "~/lib/password-strength";

const USAGE = 'Usage: npm run create-admin -- --email <address> --name "<full name>"';

export const CreateAdminInput = z.object({
  email: z.email("--email must be an e-mail address").transform((v) => v.trim().toLowerCase()),
  name: z.string().trim().min(1, "--name is required").max(100, "--name is too long"),
  password: z
    .string()
    .min(
      PASSWORD_MIN_LENGTH,
      `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
    )
    .max(
      PASSWORD_MAX_LENGTH,
      `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`,
    ),
});

/** Creates or promotes the admin; the database must already be installed (setDatabase). */
export async function createAdmin(input: z.input<typeof CreateAdminInput>) {
  const { email, name, password } = CreateAdminInput.parse(input);
  const result = await upsertUserWithPassword({
    email,
    name,
    password,
    role: "admin",
    emailVerified: true,
  });
  await recordAudit(null, {
    action: result.created ? "user.admin_created" : "user.admin_promoted",
    entity: "user",
    entityId: result.id,
    details: { via: "create-admin" },
  });
  return result;
}

/** Reads one line without echoing it (terminal only). */
function promptHidden(question: string): Promise<string> {
  const { stdin, stdout } = process;
  stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    let value = "";
    const cleanup = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stdout.write("\n");
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") {
          cleanup();
          resolve(value);
          return;
        }
        if (ch === "\u0003") {
          cleanup();
          reject(new Error("Cancelled."));
          return;
        }
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}

async function readStdinLine() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/)[0] ?? "";
}

async function readPassword() {
  if (!process.stdin.isTTY) return readStdinLine();
  const password = await promptHidden("Password: ");
  const { label } = passwordStrength(password);
  if (label !== "Strong") {
    console.log(`Password strength: ${label}. A long passphrase is better for an admin account.`);
  }
  const again = await promptHidden("Repeat the password: ");
  if (again !== password) throw new Error("The passwords do not match.");
  return password;
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: "string" }, name: { type: "string" }, help: { type: "boolean" } },
  });
  if (values.help || !values.email || !values.name) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const env = parseEnv();
  setEnv(env);
  const password = await readPassword();
  const input = CreateAdminInput.safeParse({ email: values.email, name: values.name, password });
  if (!input.success) {
    console.error(input.error.issues.map((i) => i.message).join("\n"));
    return 1;
  }
  const database = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  setDatabase(database);
  try {
    await database.migrate();
    const result = await createAdmin(input.data);
    const where = env.DATABASE_URL
      ? "PostgreSQL (DATABASE_URL)"
      : `embedded database in ${env.DATA_DIR}`;
    console.log(
      `${result.created ? "Created" : "Updated"} admin ${input.data.email} (e-mail verified) in the ${where}.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      if (error instanceof EnvError || error instanceof DatabaseLockedError) {
        console.error(error.message);
      } else {
        console.error(error instanceof Error ? error.message : error);
      }
      process.exit(1);
    },
  );
}

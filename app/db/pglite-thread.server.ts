/**
 * The embedded database on its own thread (decision 0014).
 *
 * PGlite is PostgreSQL compiled to WebAssembly: every query runs on the thread that owns it. On
 * the server's main thread that is ~20% of the time spent on an uncached page, during which no
 * other request is parsed or rendered, and a slow query stalls every page. Here PGlite runs in a
 * worker thread; this class is the small part of PGlite's interface that Drizzle uses (`query`
 * and `transaction`), forwarding each call as a message.
 *
 * Semantics are PGlite's own: one query at a time, a transaction holds the database until it
 * ends, errors keep their PostgreSQL fields (code, constraint, …). A query is acknowledged only
 * after PGlite has answered it in the worker, so durability is unchanged.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from "node:worker_threads";

type Row = Record<string, unknown> | unknown[];
type Field = { name: string; dataTypeID: number };
type ThreadResults<T = Row> = { rows: T[]; fields: Field[]; affectedRows?: number };
type QueryOptions = {
  rowMode?: "array" | "object";
  /** Type id → parser. The worker sends these columns' text as is; the parser runs here. */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
};
type ThreadTransaction = {
  query<T = Row>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<ThreadResults<T>>;
};

type Request =
  | { op: "query"; sql: string; params: unknown[]; rowMode?: string; raw: number[]; tx?: number }
  | {
      op: "read";
      settings: Array<[string, string]>;
      sql: string;
      params: unknown[];
      rowMode?: string;
      raw: number[];
    }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "dump" }
  | { op: "close"; checkpoint: boolean }
  | { op: "open"; loadDataDir: Uint8Array | undefined };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorData };
type ErrorData = { message: string; name: string; props: Record<string, unknown> };

// Plain ESM, run from a data: URL so it needs no file of its own next to the server bundle.
const WORKER_SOURCE = `
import { parentPort, workerData } from "node:worker_threads";
const load = async (url) => { const m = await import(url); return m.default && !m.PGlite && !m.pg_trgm ? m.default : m; };
const { PGlite } = await load(workerData.pglite);
const { pg_trgm } = await load(workerData.pgTrgm);
const keep = (value) => value;
const transactions = new Map();
let nextTransaction = 1;
function errorData(error) {
  const props = {};
  if (error && typeof error === "object") {
    for (const key of Object.keys(error)) {
      const value = error[key];
      if (value === null || ["string", "number", "boolean"].includes(typeof value)) props[key] = value;
    }
  }
  return { message: String(error?.message ?? error), name: String(error?.name ?? "Error"), props };
}
const ownBytes = (bytes) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
let db;
// Opens PGlite from the thread's first message (workerData) or, for a thread kept for reuse, from
// an "open" request.
const open = (options) =>
  PGlite.create({
    dataDir: options.dataDir,
    // PGlite reads the tarball with arrayBuffer() alone. Node 20's Blob reads itself back in
    // chunks and joins them, about 0.4 s for the 40 MB data directory; these bytes are the
    // thread's own copy already (decision 0126).
    loadDataDir: options.loadDataDir ? { type: "", arrayBuffer: async () => ownBytes(options.loadDataDir) } : undefined,
    extensions: { pg_trgm },
    pgliteWasmModule: workerData.pgliteWasmModule,
    initdbWasmModule: workerData.initdbWasmModule,
  });
try {
  db = await open(workerData);
  parentPort.postMessage({ id: 0, ok: true, value: null });
} catch (error) {
  parentPort.postMessage({ id: 0, ok: false, error: errorData(error) });
}
async function run(request) {
  switch (request.op) {
    case "query": {
      const target = request.tx ? transactions.get(request.tx).tx : db;
      const parsers = {};
      for (const type of request.raw) parsers[type] = keep;
      const result = await target.query(request.sql, request.params, { rowMode: request.rowMode, parsers });
      return {
        rows: result.rows,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        affectedRows: result.affectedRows,
      };
    }
    case "read": {
      // Begun, set, read and committed here in one go: nothing waits for the main thread.
      return await db.transaction(async (tx) => {
        for (const [name, value] of request.settings) {
          await tx.query("select set_config($1, $2, true)", [name, value]);
        }
        const parsers = {};
        for (const type of request.raw) parsers[type] = keep;
        const result = await tx.query(request.sql, request.params, { rowMode: request.rowMode, parsers });
        return {
          rows: result.rows,
          fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
          affectedRows: result.affectedRows,
        };
      });
    }
    case "begin": {
      const tx = nextTransaction++;
      return await new Promise((began, failed) => {
        const done = db.transaction((handle) => new Promise((commit, rollback) => {
          transactions.set(tx, { tx: handle, commit, rollback, done });
          began(tx);
        }));
        done.catch((error) => { if (!transactions.has(tx)) failed(error); });
      });
    }
    case "end": {
      const entry = transactions.get(request.tx);
      if (request.commit) entry.commit(); else entry.rollback(new Error("rolled back"));
      try { await entry.done; } catch (error) { if (request.commit) throw error; }
      finally { transactions.delete(request.tx); }
      return null;
    }
    case "dump": {
      const file = await db.dumpDataDir("none");
      return new Uint8Array(await file.arrayBuffer());
    }
    case "close": {
      if (request.checkpoint) await db.query("CHECKPOINT");
      await db.close();
      db = undefined;
      transactions.clear();
      return null;
    }
    case "open": {
      db = await open(request);
      return null;
    }
  }
}
const { syncPort, syncFlag } = workerData;
parentPort.on("message", async ({ id, request, sync }) => {
  let reply;
  try {
    reply = { id, ok: true, value: await run(request) };
  } catch (error) {
    reply = { id, ok: false, error: errorData(error) };
  }
  if (!sync) return parentPort.postMessage(reply);
  syncPort.postMessage(reply);
  Atomics.store(syncFlag, 0, 1);
  Atomics.notify(syncFlag, 0);
});
`;

/** How long a call inside a transaction may wait for the worker (a backup reads whole tables). */
const SYNC_TIMEOUT_MS = 120_000;

const require = createRequire(import.meta.url);
const moduleUrl = (specifier: string) => pathToFileURL(require.resolve(specifier)).href;

type CompiledWasm = { pglite: WebAssembly.Module; initdb: WebAssembly.Module };
let compiled: Promise<CompiledWasm> | undefined;

/** PGlite's WebAssembly, compiled once per process and shared by every thread (a worker would
 * otherwise compile its 9 MB again, ~1.5 s). */
function compiledWasm(): Promise<CompiledWasm> {
  compiled ??= (async () => {
    const dist = path.dirname(require.resolve("@electric-sql/pglite"));
    const compile = async (file: string) =>
      WebAssembly.compile(await readFile(path.join(dist, file)));
    const [pglite, initdb] = await Promise.all([compile("pglite.wasm"), compile("initdb.wasm")]);
    return { pglite, initdb };
  })();
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

/** An error from the worker, with the PostgreSQL fields (code, constraint, detail, …) it had. */
class DatabaseThreadError extends Error {
  constructor(data: ErrorData) {
    super(data.message);
    this.name = data.name;
    Object.assign(this, data.props);
  }
}

/** A worker thread and the port and flag of its synchronous replies. */
type Channel = { worker: Worker; syncPort: MessagePort; syncFlag: Int32Array };

/**
 * A thread whose in-memory database was closed, kept for the next in-memory database this
 * process opens (decision 0131). Tests open one per file, and starting a thread (a new
 * JavaScript engine instance that loads PGlite's code) costs about 0.4 s of processor time,
 * nearly as much as loading the database itself. Databases on disk (the server's) never use it.
 */
let spare: Channel | undefined;

function spareDied() {
  spare = undefined;
}

function takeSpare() {
  const channel = spare;
  spare = undefined;
  channel?.worker.off("error", spareDied);
  channel?.worker.off("exit", spareDied);
  return channel;
}

function spawn(
  dataDir: string | undefined,
  wasm: CompiledWasm,
  loadDataDir: Uint8Array | undefined,
) {
  const { port1, port2 } = new MessageChannel();
  const syncFlag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER_SOURCE)}`), {
    workerData: {
      dataDir,
      loadDataDir,
      pglite: moduleUrl("@electric-sql/pglite"),
      pgTrgm: moduleUrl("@electric-sql/pglite/contrib/pg_trgm"),
      pgliteWasmModule: wasm.pglite,
      initdbWasmModule: wasm.initdb,
      syncPort: port2,
      syncFlag,
    },
    transferList: [port2],
  });
  return { worker, syncPort: port1, syncFlag };
}

export class PgliteThread {
  private worker: Worker;
  private pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private stopped: Error | undefined;
  // Replies to synchronous calls: a port read with receiveMessageOnPort once the flag is set.
  private syncPort: MessagePort;
  private syncFlag: Int32Array;
  /** Settles when the last transaction asked for has ended: they run one after another. */
  private lastTransaction: Promise<void> = Promise.resolve();

  private constructor(
    channel: Channel,
    private inMemory: boolean,
  ) {
    this.worker = channel.worker;
    this.syncPort = channel.syncPort;
    this.syncFlag = channel.syncFlag;
    this.worker.on("message", this.onReply);
    // A worker that dies (out of memory, a WebAssembly abort) fails what waits and what follows.
    this.worker.on("error", this.fail);
    this.worker.on("exit", this.onExit);
  }

  private onReply = (reply: Reply) => {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(new DatabaseThreadError(reply.error));
  };

  private fail = (error: Error) => {
    this.stopped ??= error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  };

  private onExit = (code: number) =>
    this.fail(new Error(`The database thread stopped (exit code ${code})`));

  /**
   * Opens PGlite (on disk when `dataDir` is given, else in memory) in a worker thread, starting
   * from a dumped data directory (`dump()`'s tarball) when `loadDataDir` is given. An in-memory
   * database takes the thread a closed one left, if there is one.
   */
  static async create(
    options: { dataDir?: string; loadDataDir?: Uint8Array } = {},
  ): Promise<PgliteThread> {
    const inMemory = options.dataDir === undefined;
    const reused = inMemory ? takeSpare() : undefined;
    const thread = new PgliteThread(
      reused ?? spawn(options.dataDir, await compiledWasm(), options.loadDataDir),
      inMemory,
    );
    try {
      if (reused) await thread.call({ op: "open", loadDataDir: options.loadDataDir });
      else await thread.wait(0);
    } catch (error) {
      thread.detach();
      await thread.worker.terminate();
      throw error;
    }
    return thread;
  }

  query<T = Row>(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
    return this.call<ThreadResults<T>>(queryRequest(sql, params, options)).then((result) =>
      parsed(result, options),
    );
  }

  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws.
   *
   * A transaction holds the database until it ends, so its calls must not wait in this thread's
   * event loop behind other requests' rendering while the worker sits idle (under load that made
   * one search's three round trips take tens of milliseconds each, and every other query wait
   * for them). Inside a transaction each call therefore blocks until the worker answers, as
   * PGlite did on this thread. Transactions take turns here first, so a blocking call only ever
   * waits for the worker's own work, never for another transaction that needs this thread.
   */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const previous = this.lastTransaction;
    let ended = () => {};
    this.lastTransaction = new Promise((resolve) => {
      ended = resolve;
    });
    await previous;
    try {
      const tx = this.callSync<number>({ op: "begin" });
      let value: T;
      try {
        value = await fn({
          query: <R = Row>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
            try {
              const result = this.callSync<ThreadResults<R>>(
                queryRequest(sql, params, options, tx),
              );
              return Promise.resolve(parsed(result, options));
            } catch (error) {
              return Promise.reject(error);
            }
          },
        });
      } catch (error) {
        try {
          this.callSync({ op: "end", tx, commit: false });
        } catch {}
        throw error;
      }
      this.callSync({ op: "end", tx, commit: true });
      return value;
    } finally {
      ended();
    }
  }

  /**
   * One read with transaction-local settings (`set_config(name, value, true)`, e.g.
   * `enable_seqscan: "off"`), begun, run and committed by the worker in one round trip. Unlike
   * `transaction`, nothing blocks this thread: the public search's capped count used to hold the
   * main thread in `callSync` while the worker first drained every query queued before it.
   */
  queryWithSettings<T = Row>(
    settings: Record<string, string>,
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
  ) {
    return this.call<ThreadResults<T>>({
      op: "read",
      settings: Object.entries(settings),
      sql,
      params,
      rowMode: options.rowMode,
      raw: rawTypes(options),
    }).then((result) => parsed(result, options));
  }

  /** The whole data directory as an uncompressed tarball (a template for `create`). */
  dump() {
    return this.call<Uint8Array>({ op: "dump" });
  }

  /**
   * Writes a checkpoint (on disk) and stops the thread; an in-memory database's thread is kept
   * for the next one instead, once its database has closed cleanly.
   */
  async close({ checkpoint = false } = {}) {
    if (this.stopped) return;
    let closed = false;
    try {
      await this.call({ op: "close", checkpoint });
      closed = true;
    } finally {
      this.stopped = new Error("The database is closed");
      this.detach();
      if (closed && this.inMemory && !spare && this.pending.size === 0) {
        spare = { worker: this.worker, syncPort: this.syncPort, syncFlag: this.syncFlag };
        this.worker.unref();
        this.worker.on("error", spareDied);
        this.worker.once("exit", spareDied);
      } else {
        await this.worker.terminate();
      }
    }
  }

  /** Stops listening to the worker: its next owner (or nobody) hears it from now on. */
  private detach() {
    this.worker.off("message", this.onReply);
    this.worker.off("error", this.fail);
    this.worker.off("exit", this.onExit);
  }

  private call<T>(request: Request): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    this.worker.postMessage({ id, request });
    return this.wait<T>(id);
  }

  /** Sends a request and blocks this thread until the worker answers it. */
  private callSync<T>(request: Request): T {
    if (this.stopped) throw this.stopped;
    const id = this.nextId++;
    while (receiveMessageOnPort(this.syncPort)); // a late answer to a call that timed out
    Atomics.store(this.syncFlag, 0, 0);
    this.worker.postMessage({ id, request, sync: true });
    for (;;) {
      if (Atomics.wait(this.syncFlag, 0, 0, SYNC_TIMEOUT_MS) === "timed-out") {
        throw new Error(`The database thread did not answer within ${SYNC_TIMEOUT_MS / 1000} s`);
      }
      Atomics.store(this.syncFlag, 0, 0);
      const reply = receiveMessageOnPort(this.syncPort)?.message as Reply | undefined;
      if (reply?.id !== id) continue;
      if (reply.ok) return reply.value as T;
      throw new DatabaseThreadError(reply.error);
    }
  }

  private wait<T>(id: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
  }
}

function queryRequest(sql: string, params: unknown[], options: QueryOptions, tx?: number): Request {
  return { op: "query", sql, params, rowMode: options.rowMode, raw: rawTypes(options), tx };
}

/** The types whose text the worker sends as is (their parsers run on the caller's side). */
function rawTypes(options: QueryOptions) {
  return Object.keys(options.parsers ?? {}).map(Number);
}

function parsed<T>(result: ThreadResults<T>, options: QueryOptions) {
  return options.parsers && result.fields.length
    ? applyParsers(result, options.parsers, options.rowMode)
    : result;
}

function applyParsers<T>(
  result: ThreadResults<T>,
  parsers: NonNullable<QueryOptions["parsers"]>,
  rowMode: QueryOptions["rowMode"],
): ThreadResults<T> {
  const columns = result.fields
    .map((field, index) => ({ index, name: field.name, type: field.dataTypeID }))
    .filter((column) => parsers[column.type]);
  for (const row of result.rows as Array<Record<string | number, unknown>>) {
    for (const { index, name, type } of columns) {
      const key = rowMode === "array" ? index : name;
      const value = row[key];
      if (typeof value === "string") row[key] = parsers[type](value, type);
    }
  }
  return result;
}

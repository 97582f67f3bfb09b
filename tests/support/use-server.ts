// One bootstrap for API test files: start a thing before the file's (or
// the describe block's) tests, stop it after them, and hand back a handle
// that reads the running thing. Read the handle inside tests and hooks,
// never at module load: before `beforeAll` has run there is nothing yet.
import { afterAll, beforeAll } from "vitest";
import { startPushService, type TestPushService } from "./push-service";
import { startServer, type TestServer } from "./server";
import { startSmtp, type TestSmtp } from "./smtp";

type Env = Record<string, string>;

/**
 * The production build on a fresh database for this file or describe
 * block. `env` may be a function when it depends on something started
 * earlier (an SMTP server's url): it is called in `beforeAll`.
 */
export function useServer(env: Env | (() => Env) = {}): TestServer {
  const [server] = useServers(env);
  return server;
}

/** Several servers started side by side (each its own env and database). */
export function useServers<const E extends readonly (Env | (() => Env))[]>(
  ...envs: E
): { [K in keyof E]: TestServer } {
  let running: TestServer[] = [];
  beforeAll(async () => {
    running = await Promise.all(
      envs.map((env) => startServer(typeof env === "function" ? env() : env)),
    );
  });
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
  });
  return envs.map((_, i) => handle(() => running[i], "server")) as {
    [K in keyof E]: TestServer;
  };
}

/** A real SMTP server (tests/support/smtp.ts) for this file. */
export function useSmtp(): TestSmtp {
  let running: TestSmtp | undefined;
  beforeAll(async () => {
    running = await startSmtp();
  });
  afterAll(() => running?.stop());
  return handle(() => running, "SMTP server");
}

/** A Web Push service (tests/support/push-service.ts) for this file. */
export function usePushService(): TestPushService {
  let running: TestPushService | undefined;
  beforeAll(async () => {
    running = await startPushService();
  });
  afterAll(() => running?.stop());
  return handle(() => running, "push service");
}

/** Stands for whatever `current()` holds when a property is read or set. */
function handle<T extends object>(current: () => T | undefined, what: string) {
  const target = () => {
    const value = current();
    if (!value)
      throw new Error(
        `The ${what} is not started: read it inside a test or hook, not at module load.`,
      );
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    set: (_, key, value) => Reflect.set(target(), key, value),
  });
}

// What server.ts knows about a request that React Router does not: handed to
// every loader, action and the document renderer through the request's
// RouterContextProvider (React Router middleware, docs/decisions/archive/0811-session-through-router-middleware.md).
import { createContext, type RouterContext } from "react-router";

type RequestContexts = {
  /** The CSP nonce of this request, made in server.ts. */
  nonce: RouterContext<string>;
  /**
   * The client's address, from the socket, or from the header a trusted
   * proxy sets (server/client-address.ts): the key of abuse limits.
   */
  clientAddress: RouterContext<string>;
};

// This module is loaded twice in one process: by server.ts (bundled by
// esbuild into build/app-server.js) and by the app (Vite's server build, or
// vite.ssrLoadModule in development). React Router finds a context value by
// the identity of its key, so both copies must hand out the same keys: they
// are made once and kept under a registered symbol.
const SHARED = Symbol.for("fairshake.request-contexts");
const shared = globalThis as typeof globalThis & {
  [SHARED]?: RequestContexts;
};
const contexts = (shared[SHARED] ??= {
  nonce: createContext<string>(""),
  clientAddress: createContext<string>(),
});

export const nonceContext = contexts.nonce;
export const clientAddressContext = contexts.clientAddress;

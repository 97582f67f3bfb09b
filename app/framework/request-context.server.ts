// What the server knows about a request that React Router does not: handed to
// every loader, action and the document renderer through the request's
// RouterContextProvider (React Router middleware, docs/decisions/archive/0811-session-through-router-middleware.md).
// React Router finds a value by the identity of its key: the server
// (server/serve.ts) and the routes share this one module, as they share one
// build (docs/decisions/1040-one-module-graph.md).
import { createContext } from "react-router";

/** The CSP nonce of this request, made in server/serve.ts. */
export const nonceContext = createContext<string>("");

/**
 * The client's address, from the socket, or from the header a trusted
 * proxy sets (server/client-address.ts): the key of abuse limits.
 */
export const clientAddressContext = createContext<string>();

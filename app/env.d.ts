import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The CSP nonce of this request, made in server.ts. */
    nonce: string;
    /**
     * The client's address, from the socket, or from the header a trusted
     * proxy sets (server/client-address.ts): the key of abuse limits.
     */
    clientAddress: string;
  }
}

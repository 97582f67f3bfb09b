import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The CSP nonce of this request, made in server.ts. */
    nonce: string;
  }
}

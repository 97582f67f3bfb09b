import { createContext, useContext } from "react";

// The per-request CSP nonce, made in server/serve.ts and handed to React here so
// <Scripts> and our one inline script carry it. The browser hides the value
// from the DOM after parsing, so the client renders it as "".
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);

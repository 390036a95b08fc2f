import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

/** The CSP nonce of this response (server render only; browsers hide it from the DOM). */
export function useNonce() {
  return useContext(NonceContext);
}

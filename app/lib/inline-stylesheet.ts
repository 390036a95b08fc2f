/**
 * What the root's `<style>` holds when the server renders it: a placeholder the document
 * writer (entry.server.tsx) replaces with the stylesheet's bytes, read once at start-up
 * (decision 0066). React then never copies the 50 KB stylesheet into each page it renders.
 */
export const STYLESHEET_PLACEHOLDER = "/*kongamano:stylesheet*/";

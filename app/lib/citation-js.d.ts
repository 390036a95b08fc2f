// citation-js ships no type declarations; the tests only need this much of it.
declare module "@citation-js/core" {
  export class Cite {
    constructor(data: unknown, options?: { forceType?: string });
    data: Array<Record<string, unknown>>;
  }
}
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/plugin-ris";

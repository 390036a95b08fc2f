// The submission form's limits, shared by the model (which enforces them) and the pages.
export const KEYWORDS_MIN = 3;
export const KEYWORDS_MAX = 6;
export const MAX_AUTHORS = 30;
export const TITLE_MAX = 300;
export const ABSTRACT_MAX = 5_000;
export const RESPONSE_LETTER_MAX = 20_000;

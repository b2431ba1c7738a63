/** Deepest nesting of objects and arrays a body may have (the top-level object is depth 1). */
export const maxJsonDepth = 32;

/** One problem in a request: a JSON Pointer into the body (or path) and what is wrong there. */
export interface ProblemDetail {
  readonly path: string;
  readonly message: string;
}

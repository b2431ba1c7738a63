import type { HqApiError } from '../api/HqClient.js';

/** An error from the API, said plainly, with its stable code for a support request. */
export function Problem({ error, what }: { readonly error: HqApiError; readonly what: string }) {
  return (
    <p class="error" role="alert">
      Could not load {what}: {error.message} <span class="muted">({error.code})</span>
    </p>
  );
}

export function Loading({ what }: { readonly what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

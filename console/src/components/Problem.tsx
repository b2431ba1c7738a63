import type { HqApiError } from '../api/HqClient.js';
import { useStatusMessage } from '../session/StatusMessage.js';
import { ErrorDetails } from './ErrorDetails.js';

/** An error from the API, said plainly, with its stable code for a support request. */
export function Problem({ error, what }: { readonly error: HqApiError; readonly what: string }) {
  return (
    <div class="error" role="alert">
      <p>
        Could not load {what}: {error.message} <span class="muted">({error.code})</span>
      </p>
      <ErrorDetails details={error.details} />
    </div>
  );
}

export function Loading({ what }: { readonly what: string }) {
  const text = `Loading ${what}…`;
  useStatusMessage(text);
  return <p class="muted">{text}</p>;
}

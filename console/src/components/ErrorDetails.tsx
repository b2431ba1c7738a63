import type { HqErrorDetail } from '../api/HqClient.js';

/**
 * The API's `details` under its generic message ("A query or path parameter is missing or
 * invalid."), which alone does not say what to change (a range over 62 days, the third store id).
 * The messages never quote what was sent; they are rendered as text, never as HTML.
 */
export function ErrorDetails({ details }: { readonly details: readonly HqErrorDetail[] }) {
  if (details.length === 0) return null;
  return (
    <ul class="error-details" data-testid="error-details">
      {details.map((detail, index) => (
        <li key={index}>
          {detail.path !== '' && <code>{detail.path.replace(/^\//, '')}</code>} {detail.message}
        </li>
      ))}
    </ul>
  );
}

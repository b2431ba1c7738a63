import type { ComponentChildren } from 'preact';
import { hrefOf } from '../route.js';

/**
 * A page's filter form: submitting it moves to the page's link with the filled fields as its
 * query, so every filtered view is a link and Back returns to the previous filter.
 */
export function FilterForm({ page, children }: { readonly page: string; readonly children: ComponentChildren }) {
  return (
    <form
      class="filters"
      onSubmit={(event) => {
        event.preventDefault();
        window.location.hash = hrefOf([page], formQuery(event.currentTarget));
      }}
    >
      {children}
      <button type="submit" class="primary">
        Show
      </button>
    </form>
  );
}

/** Turns a filter form's fields into the page's fragment link. */
function formQuery(form: HTMLFormElement): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new FormData(form).entries()) if (typeof value === 'string' && value !== '') query[name] = value;
  return query;
}

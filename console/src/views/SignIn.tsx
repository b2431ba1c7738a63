import { useState } from 'preact/hooks';

/** Asks for the operator key; the key is kept in this tab only (sessionStorage). */
export function SignIn({ onSubmit, message }: { readonly onSubmit: (key: string) => Promise<void>; readonly message: string | undefined }) {
  const [busy, setBusy] = useState(false);
  return (
    <main class="sign-in">
      <h1 tabIndex={-1}>HQ console</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const entered = new FormData(event.currentTarget).get('key');
          const key = typeof entered === 'string' ? entered.trim() : '';
          if (key === '') return;
          setBusy(true);
          void onSubmit(key).finally(() => {
            setBusy(false);
          });
        }}
      >
        <label>
          Operator key
          <input type="password" name="key" autocomplete="off" spellcheck={false} required autofocus />
        </label>
        <p class="muted small">
          Issued with `npm run hq -- operator issue`. It stays in this browser tab only and is forgotten when the tab closes or you sign
          out.
        </p>
        {message && (
          <p class="error" role="alert">
            {message}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

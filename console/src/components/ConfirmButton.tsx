import { useId, useRef, useState } from 'preact/hooks';
import { HqApiError, type HqErrorDetail } from '../api/HqClient.js';
import { ErrorDetails } from './ErrorDetails.js';

interface ConfirmButtonProps {
  /** The button's text, e.g. "Revoke". */
  readonly label: string;
  /** What the dialog asks, naming the thing acted on. */
  readonly question: string;
  /** The things acted on, listed one per line under the question: an id may itself hold ", ". */
  readonly items?: readonly string[];
  readonly confirmLabel: string;
  readonly danger?: boolean;
  /** Runs on confirmation; its error (a message) is shown in the dialog. */
  readonly onConfirm: () => Promise<void>;
  readonly disabled?: boolean;
  /** Extra accessible text for the button (which row it acts on). */
  readonly describe?: string;
}

/**
 * An admin action behind a modal confirmation: the native dialog traps focus, Escape cancels, and
 * the cancel button has the focus first so Enter alone never acts. While the request runs the
 * dialog stays open (Escape does nothing) so its answer, a refusal included, is seen where it was
 * asked for; its buttons are aria-disabled rather than disabled, since a disabled button drops the
 * focus to <body>.
 */
export function ConfirmButton({ label, question, items, confirmLabel, danger, onConfirm, disabled, describe }: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const questionId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; details: readonly HqErrorDetail[] } | undefined>();

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (caught) {
      setError({
        message: caught instanceof Error ? caught.message : 'The action failed.',
        details: caught instanceof HqApiError ? caught.details : [],
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        class={danger ? 'danger' : 'secondary'}
        disabled={disabled}
        aria-label={describe ? `${label} ${describe}` : undefined}
        onClick={() => {
          setError(undefined);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <dialog
        ref={dialog}
        class="confirm"
        aria-labelledby={questionId}
        onKeyDown={(event) => {
          // The cancel event below is not always cancelable (Chrome allows it once per user
          // activation, so a second Escape would close the dialog); a cancelled key sends none.
          if (busy && event.key === 'Escape') event.preventDefault();
        }}
        onCancel={(event) => {
          if (busy) event.preventDefault();
        }}
      >
        <p class="confirm-question" id={questionId}>
          {question}
        </p>
        {items && (
          <ul class="confirm-items" data-testid="confirm-items">
            {items.map((item) => (
              <li key={item}>
                <code>{item}</code>
              </li>
            ))}
          </ul>
        )}
        {error && (
          <div class="error" role="alert">
            <p>{error.message}</p>
            <ErrorDetails details={error.details} />
          </div>
        )}
        <div class="confirm-buttons">
          <button
            type="button"
            class="secondary"
            autofocus
            aria-disabled={busy}
            onClick={() => {
              if (!busy) dialog.current?.close();
            }}
          >
            Cancel
          </button>
          <button type="button" class={danger ? 'danger' : 'primary'} aria-disabled={busy} onClick={() => void confirm()}>
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

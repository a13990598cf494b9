/**
 * What the user typed survives a session timeout (docs/decisions.md#session-timeout-keeps-what-was-typed). When
 * a 401 ends the session, the fields of the screen's forms are kept in session storage (this tab only) with the
 * screen's path; after signing in again the user is sent back to that path and the fields are filled in again,
 * as if typed (the forms' own change handlers run, so their validation runs too).
 *
 * Never kept: passwords, codes, files, hidden fields (a secret must not outlive the session).
 */

const DRAFT_KEY = "kassa.draft";
/** A draft older than this is dropped rather than filled in. */
const DRAFT_MAX_AGE_MS = 30 * 60_000;
/** How long a restore waits for the screen's fields to appear (lazy screens, data to load). */
const RESTORE_WAIT_MS = 10_000;

interface DraftField {
  /** The position of the field's form among the screen's forms. */
  form: number;
  name: string;
  value: string;
  kind: "text" | "select" | "check";
}

interface Draft {
  path: string;
  savedAt: number;
  fields: DraftField[];
}

const SECRET = /password|code|token|secret|otp/i;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function fieldsOf(form: HTMLFormElement): Field[] {
  return Array.from(form.querySelectorAll<Field>("input[name], textarea[name], select[name]")).filter((el) => {
    if (SECRET.test(el.name) || el.disabled) return false;
    if (el instanceof HTMLInputElement) {
      const type = el.type.toLowerCase();
      return !["password", "hidden", "file", "submit", "button", "reset", "image"].includes(type);
    }
    return true;
  });
}

/** Keeps the typed fields of the forms on the page, for `path`. Nothing is kept when nothing was typed. */
export function saveDraft(path: string, root: ParentNode = document): void {
  const fields: DraftField[] = [];
  Array.from(root.querySelectorAll("form")).forEach((form, index) => {
    for (const el of fieldsOf(form)) {
      if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
        if (el.checked !== el.defaultChecked)
          fields.push({
            form: index,
            name: el.name,
            value: el.type === "radio" ? el.value : String(el.checked),
            kind: "check",
          });
      } else if (el instanceof HTMLSelectElement) {
        fields.push({ form: index, name: el.name, value: el.value, kind: "select" });
      } else if (el.value.trim() !== "") {
        fields.push({ form: index, name: el.name, value: el.value, kind: "text" });
      }
    }
  });
  try {
    if (fields.some((f) => f.kind !== "select"))
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ path, savedAt: Date.now(), fields } satisfies Draft));
    else sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Without storage the draft is lost, as it was before.
  }
}

/** The draft kept for `path` (and forgets it), or null. */
export function takeDraft(path: string): Draft | null {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    if (!raw) return null;
    const draft = JSON.parse(raw) as Draft;
    if (draft.path !== path) return null;
    sessionStorage.removeItem(DRAFT_KEY);
    return Date.now() - draft.savedAt <= DRAFT_MAX_AGE_MS ? draft : null;
  } catch {
    return null;
  }
}

/** Sets a field's value the way typing does, so React's change handler sees it. */
function fill(el: Field, field: DraftField): void {
  if (el instanceof HTMLInputElement && field.kind === "check") {
    const checked = el.type === "radio" ? el.value === field.value : field.value === "true";
    if (el.checked !== checked) el.click();
    return;
  }
  const proto = Object.getPrototypeOf(el) as object;
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  setter?.call(el, field.value);
  el.dispatchEvent(new Event(field.kind === "select" ? "change" : "input", { bubbles: true }));
}

/**
 * Fills the draft into the forms under `root` as their fields appear (selects first: they may decide
 * which fields exist). Resolves with the number of fields filled; gives up after a while.
 */
export function restoreDraft(draft: Draft, root: ParentNode = document): Promise<number> {
  const pending = [...draft.fields].sort((a, b) => Number(b.kind === "select") - Number(a.kind === "select"));
  let filled = 0;
  const attempt = () => {
    const forms = Array.from(root.querySelectorAll("form"));
    for (let i = 0; i < pending.length; ) {
      const field = pending[i] as DraftField;
      const form = forms[field.form];
      const el = form
        ? fieldsOf(form).find(
            (f) => f.name === field.name && (field.kind !== "check" || f.type !== "radio" || f.value === field.value),
          )
        : undefined;
      if (el) {
        fill(el, field);
        filled += 1;
        pending.splice(i, 1);
      } else i += 1;
    }
    return pending.length === 0;
  };
  return new Promise((resolve) => {
    if (attempt()) return resolve(filled);
    const observer = new MutationObserver(() => {
      if (attempt()) done();
    });
    const timer = setTimeout(done, RESTORE_WAIT_MS);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve(filled);
    }
    observer.observe(root instanceof Document ? root.documentElement : (root as Node), {
      childList: true,
      subtree: true,
    });
  });
}

/**
 * Form state without a form library (the login screen's budget has no room for one): values, which
 * fields the user has left, whether a submit was tried, and the errors to show. The rules speak after
 * the first submit (then as the user types); before it, only about a field the user has filled and left
 * (a login too short, an email without its @) — never about a field left empty. An error the server
 * gave for a field shows until that field changes. Nothing the user typed is ever reset by an error.
 */
import { atom, type PrimitiveAtom, useAtom } from "jotai";
import { useCallback, useMemo, useState } from "react";
import type { FieldErrorText } from "./field-errors";

export type FormValues = Record<string, string | boolean>;
export type FieldErrors<V extends FormValues> = Partial<Record<keyof V & string, FieldErrorText>>;

export interface FormState<V extends FormValues> {
  values: V;
  touched: Partial<Record<keyof V & string, boolean>>;
  /** A submit was tried: every rule speaks from now on. */
  submitted?: boolean;
  server: FieldErrors<V>;
}

export function initialFormState<V extends FormValues>(values: V): FormState<V> {
  return { values, touched: {}, submitted: false, server: {} };
}

/** Something typed or ticked: an empty text or an unticked box is nothing yet. */
function filled(value: string | boolean | undefined): boolean {
  return value !== "" && value !== false && value !== undefined;
}

export interface UseFormOptions<V extends FormValues> {
  initial: V;
  /** The client-side rules: each failing field's error. */
  validate: (values: V) => FieldErrors<V>;
  /** Where the state lives when it must outlive the screen (the registration draft); else the component. */
  state?: PrimitiveAtom<FormState<V>>;
  /**
   * Fields whose rule shows as the user types, once they hold something (an amount: 'Not enough
   * funds' as it is typed); empty, their rule waits for a submit, as any other.
   */
  asTyped?: readonly (keyof V & string)[];
}

export interface Form<V extends FormValues> {
  values: V;
  /** The errors to show now, by field. */
  errors: FieldErrors<V>;
  set<K extends keyof V & string>(name: K, value: V[K]): void;
  blur(name: keyof V & string): void;
  /** A submit attempt: every rule speaks from now on; returns the client-side errors. */
  check(): FieldErrors<V>;
  /** Shows the server's errors next to their fields. */
  setServerErrors(errors: FieldErrors<V>): void;
  reset(values?: V): void;
  /** The props that bind a text field to the form: name, value, error, typing and leaving it. */
  field<K extends keyof V & string>(name: K): FieldBinding<K>;
}

interface FieldBinding<K extends string> {
  name: K;
  value: string;
  error: FieldErrorText | undefined;
  onValueChange(value: string): void;
  onBlur(): void;
}

export function useForm<V extends FormValues>({ initial, validate, state, asTyped }: UseFormOptions<V>): Form<V> {
  // The first render's values: later renders pass new literals, which must not change what reset means.
  const [initialValues] = useState(initial);
  const [ownState] = useState(() => atom(initialFormState(initial)));
  const [form, setForm] = useAtom(state ?? ownState);

  const clientErrors = useMemo(() => validate(form.values), [validate, form.values]);

  const errors = useMemo(() => {
    const shown: FieldErrors<V> = {};
    for (const name of Object.keys(form.values) as (keyof V & string)[]) {
      const live = form.submitted || ((form.touched[name] || asTyped?.includes(name)) && filled(form.values[name]));
      const error = (live ? clientErrors[name] : undefined) ?? form.server[name];
      if (error) shown[name] = error;
    }
    return shown;
  }, [clientErrors, form, asTyped]);

  const set = useCallback(
    <K extends keyof V & string>(name: K, value: V[K]) =>
      setForm((current) => {
        const { [name]: _dropped, ...server } = current.server;
        return { ...current, values: { ...current.values, [name]: value }, server: server as FieldErrors<V> };
      }),
    [setForm],
  );

  const blur = useCallback(
    (name: keyof V & string) =>
      setForm((current) =>
        current.touched[name] ? current : { ...current, touched: { ...current.touched, [name]: true } },
      ),
    [setForm],
  );

  const check = useCallback(() => {
    const touched = Object.fromEntries(Object.keys(form.values).map((name) => [name, true])) as FormState<V>["touched"];
    setForm((current) => ({ ...current, touched, submitted: true }));
    return validate(form.values);
  }, [form.values, setForm, validate]);

  const setServerErrors = useCallback(
    (server: FieldErrors<V>) => setForm((current) => ({ ...current, server })),
    [setForm],
  );

  const reset = useCallback(
    (values?: V) => setForm(initialFormState(values ?? initialValues)),
    [setForm, initialValues],
  );

  const field = <K extends keyof V & string>(name: K): FieldBinding<K> => ({
    name,
    value: String(form.values[name]),
    error: errors[name],
    onValueChange: (value) => set(name, value as V[K]),
    onBlur: () => blur(name),
  });

  return { values: form.values, errors, set, blur, check, setServerErrors, reset, field };
}

/** The first field (in the form's order) that has an error, to move the focus there. */
export function firstInvalidField<V extends FormValues>(order: readonly (keyof V & string)[], errors: FieldErrors<V>) {
  return order.find((name) => errors[name] !== undefined);
}

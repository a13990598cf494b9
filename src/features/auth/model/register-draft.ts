import { atom } from "jotai";
import { type FormState, initialFormState } from "@/lib/form/use-form";
import type { RegisterValues } from "./password-rules";

export const EMPTY_REGISTRATION: RegisterValues = {
  login: "",
  fullName: "",
  email: "",
  phone: "",
  password: "",
  passwordRepeat: "",
  acceptTerms: false,
};

/**
 * The registration form's state, kept outside the screen: reading the Terms (their own screen) or
 * going back and forth never loses what was typed. Memory only, never storage (it holds a password);
 * emptied after a successful registration.
 */
export const registerDraftAtom = atom<FormState<RegisterValues>>(initialFormState(EMPTY_REGISTRATION));

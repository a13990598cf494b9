import {
  ageInYears,
  FAMILY_STATUSES,
  FamilyStatus,
  VERIFICATION_FILE_FIELDS,
  VERIFICATION_MIN_AGE_YEARS,
  VerificationFields,
  type VerificationFileField,
  type VerificationState,
} from "@contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Section, Skeleton } from "@telegram-apps/telegram-ui";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { TextField } from "@/components/form/text-field";
import { Placeholder } from "@/components/placeholder";
import { isApiError } from "@/lib/api-client";
import { useApiErrorText } from "@/lib/error-text";
import { type FieldErrorText, validationError } from "@/lib/form/field-errors";
import { type FormError, formErrorOf, type Translate, textOfMessage } from "@/lib/form/messages";
import { codeOf } from "@/lib/form/rules";
import { type FieldErrors, firstInvalidField, useForm } from "@/lib/form/use-form";
import { haptics } from "@/tma/hooks";
import { photoIssue, verificationMutations, verificationQueries } from "../api/verification-queries";
import "../verification.css";

const TEXT_NAMES = ["fullName", "dateOfBirth", "familyStatus", "documentNumber"] as const;
type TextName = (typeof TEXT_NAMES)[number];
type TextValues = Record<TextName, string>;

/** The contract's rules of the request's fields (VerificationFields), and the adult's age. */
function textErrors(values: TextValues): FieldErrors<TextValues> {
  const errors: FieldErrors<TextValues> = {};
  const rule = (name: TextName, code: string | undefined) => {
    if (code) errors[name] = validationError(code);
  };
  rule("fullName", codeOf(VerificationFields.shape.fullName, values.fullName));
  rule("dateOfBirth", codeOf(VerificationFields.shape.dateOfBirth, values.dateOfBirth));
  if (!errors.dateOfBirth && ageInYears(values.dateOfBirth, new Date()) < VERIFICATION_MIN_AGE_YEARS)
    errors.dateOfBirth = { ns: "settings", key: "verification.adult" };
  rule("familyStatus", values.familyStatus === "" ? "required" : codeOf(FamilyStatus, values.familyStatus));
  rule("documentNumber", codeOf(VerificationFields.shape.documentNumber, values.documentNumber.trim()));
  return errors;
}

/** Account verification: the status, and the request form while none is in process or done. */
export function VerificationSection() {
  const { t } = useTranslation(["settings", "common", "enums"]);
  const errorText = useApiErrorText();
  const state = useQuery(verificationQueries.state());
  return (
    <Section header={t("verification.header")} data-section="verification">
      {state.isPending ? (
        <Skeleton visible>
          <div className="skeleton-block" />
        </Skeleton>
      ) : state.isError ? (
        <Placeholder description={errorText(state.error)}>
          <Button size="s" onClick={() => void state.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        </Placeholder>
      ) : (
        <>
          <VerificationStatusRow state={state.data} />
          {state.data.status === null || state.data.status === "denied" ? <VerificationForm /> : null}
        </>
      )}
    </Section>
  );
}

function VerificationStatusRow({ state }: { state: VerificationState }) {
  const { t } = useTranslation(["settings", "enums", "success"]);
  return (
    <div className="verification-status-row">
      <span>{t("verification.status")}</span>
      <strong
        className={`verification-status status-${state.status ?? "none"}`}
        data-testid="verification-status"
        data-status={state.status ?? "none"}
      >
        {state.status ? t(`verificationStatus.${state.status}`, { ns: "enums" }) : t("verification.notRequested")}
      </strong>
      {state.status === "denied" && state.note ? (
        <p className="field-hint verification-note">{t("verification.note", { note: state.note })}</p>
      ) : null}
      {/* Sent is not verified: until the operator decides, the row says the documents are in review. */}
      {state.status === "in_process" ? (
        <p className="field-hint verification-note" role="status" data-testid="verification-in-review">
          {t("verification.inReview")}
        </p>
      ) : null}
      {state.status === "success" ? (
        <p className="field-hint verification-note" data-testid="verification-succeeded">
          {t("VERIFICATION_SUCCEEDED", { ns: "success" })}
        </p>
      ) : null}
    </div>
  );
}

function VerificationForm() {
  const { t } = useTranslation(["settings", "validation", "errors"]);
  const queryClient = useQueryClient();
  const send = useMutation(verificationMutations.request());
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<TextValues>({
    initial: { fullName: "", dateOfBirth: "", familyStatus: "", documentNumber: "" },
    validate: textErrors,
  });
  const { values } = form;
  // The photos are files, not text: they keep their own state and errors.
  const [photos, setPhotos] = useState<Partial<Record<VerificationFileField, File>>>({});
  const [photoErrors, setPhotoErrors] = useState<Partial<Record<VerificationFileField, string>>>({});
  const [formError, setFormError] = useState<FormError | null>(null);

  const text = (error: FieldErrorText | undefined) =>
    error ? textOfMessage(t as unknown as Translate, error) : undefined;
  // No check on leaving a field: the rules show from the first submit on.
  const field = (name: TextName) => ({
    ...form.field(name),
    onBlur: undefined,
    error: text(form.errors[name]),
    onValueChange: (value: string) => {
      form.set(name, value);
      setFormError(null);
    },
  });
  const clearPhoto = (name: VerificationFileField) => {
    setPhotoErrors(({ [name]: _, ...rest }) => rest);
    setFormError(null);
  };

  const checkPhotos = () => {
    const out: Partial<Record<VerificationFileField, string>> = {};
    for (const field of VERIFICATION_FILE_FIELDS) {
      const issue = photoIssue(photos[field]);
      if (issue) out[field] = t(issue, { ns: "validation" });
    }
    return out;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const invalid = firstInvalidField(TEXT_NAMES, form.check());
    const photoFound = checkPhotos();
    setPhotoErrors(photoFound);
    if (invalid || Object.keys(photoFound).length > 0) {
      haptics.notify("error");
      return;
    }
    send.mutate(
      {
        fields: {
          fullName: values.fullName.trim(),
          dateOfBirth: values.dateOfBirth,
          familyStatus: values.familyStatus as FamilyStatus,
          documentNumber: values.documentNumber.trim(),
        },
        photos: photos as Record<VerificationFileField, File>,
      },
      {
        onSuccess: (reply) => {
          // 'Successful verification' waits for the operator's decision; the status row now says
          // the documents are in review.
          haptics.notify("success");
          queryClient.setQueryData(verificationQueries.state().queryKey, reply);
        },
        onError: (error) => {
          haptics.notify("error");
          const fields = isApiError(error) ? error.fields : undefined;
          if (fields && Object.keys(fields).length > 0) {
            const texts: FieldErrors<TextValues> = {};
            const files: Partial<Record<VerificationFileField, string>> = {};
            for (const [path, code] of Object.entries(fields)) {
              const name = path.split(".").at(-1) as TextName | VerificationFileField;
              if ((TEXT_NAMES as readonly string[]).includes(name)) texts[name as TextName] = validationError(code);
              else files[name as VerificationFileField] = t(code as "required", { ns: "validation" });
            }
            form.setServerErrors(texts);
            return setPhotoErrors(files);
          }
          setFormError(
            isApiError(error) && error.kind === "http" && !error.code
              ? { message: { ns: "errors", key: "VERIFICATION_REQUEST_FAILED" } }
              : formErrorOf(error),
          );
        },
      },
    );
  };

  return (
    <form ref={formRef} className="settings-form" onSubmit={submit} noValidate>
      <TextField label={t("verification.fullName")} autoComplete="name" {...field("fullName")} />
      <TextField label={t("verification.dateOfBirth")} type="date" {...field("dateOfBirth")} />
      <div className="form-field">
        <Select
          header={t("verification.familyStatus")}
          aria-label={t("verification.familyStatus")}
          name="familyStatus"
          value={values.familyStatus}
          status={form.errors.familyStatus ? "error" : undefined}
          onChange={(event) => field("familyStatus").onValueChange(event.target.value)}
        >
          <option value="" disabled>
            {t("verification.choose")}
          </option>
          {FAMILY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`verification.family.${status}`)}
            </option>
          ))}
        </Select>
        {form.errors.familyStatus ? (
          <p className="field-error" data-field-error="familyStatus">
            {text(form.errors.familyStatus)}
          </p>
        ) : null}
      </div>
      <TextField label={t("verification.documentNumber")} autoComplete="off" {...field("documentNumber")} />
      {VERIFICATION_FILE_FIELDS.map((field) => (
        <PhotoPicker
          key={field}
          name={field}
          label={t(`verification.${field}`)}
          file={photos[field]}
          error={photoErrors[field]}
          onFile={(file) => {
            clearPhoto(field);
            const issue = file ? photoIssue(file) : "required";
            if (issue) {
              setPhotoErrors((e) => ({ ...e, [field]: t(issue, { ns: "validation" }) }));
              setPhotos(({ [field]: _, ...rest }) => rest);
            } else if (file) setPhotos((p) => ({ ...p, [field]: file }));
          }}
        />
      ))}
      {send.isPending ? (
        <progress
          className="verification-progress"
          data-testid="verification-progress"
          aria-label={t("verification.submit")}
        />
      ) : null}
      <FormFooter
        form={formRef}
        submitText={t("verification.submit")}
        pending={send.isPending}
        error={formError}
        submitTestId="submit-verification"
      />
    </form>
  );
}

/**
 * One photo of the verification: a translated, styled picker (the browser's own "Choose File" is in
 * the browser's language and unstyled) with a preview of the chosen image and its name.
 */
function PhotoPicker({
  name,
  label,
  file,
  error,
  onFile,
}: {
  name: VerificationFileField;
  label: string;
  file: File | undefined;
  error: string | undefined;
  onFile(file: File | undefined): void;
}) {
  const { t } = useTranslation("settings");
  const inputId = useId();
  const errorId = useId();
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== "function") return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <div className="form-field verification-photo" data-testid={`photo-${name}`}>
      <span className="verification-photo-label" id={`${inputId}-label`}>
        {label}
      </span>
      <div className="verification-photo-row">
        {preview ? (
          <img className="verification-photo-preview" src={preview} alt="" data-testid="photo-preview" />
        ) : (
          <span className="verification-photo-preview verification-photo-empty" aria-hidden="true" />
        )}
        <span className="verification-photo-name" data-testid="photo-name">
          {file ? file.name : t("verification.noPhoto")}
        </span>
        <label htmlFor={inputId} className="verification-photo-button">
          {file ? t("verification.changePhoto") : t("verification.choosePhoto")}
        </label>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          name={name}
          accept="image/jpeg,image/png"
          aria-labelledby={`${inputId}-label`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onFile(event.target.files?.[0])}
        />
      </div>
      {error ? (
        <p className="field-error verification-photo-error" id={errorId} data-field-error={name}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

import { useMutation } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue, useSetAtom } from "jotai";
import { type FormEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormErrorBanner } from "@/components/form/form-footer";
import { SectionSaved } from "@/components/settings-field";
import { isApiError } from "@/lib/api-client";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { updateUserAtom, userAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { avatarMutations, imageFileIssue } from "../api/avatar-upload";
import "../avatar.css";

/** A refused image says 'Error updating image' (docs/cabinet-rules.md#messages). */
const IMAGE_UPDATE_FAILED: FormError = { message: { ns: "errors", key: "IMAGE_UPDATE_FAILED" } };

/**
 * The avatar: a JPEG or PNG of at most 5 MB, checked and previewed before it is uploaded, with its own
 * secondary button once an image is chosen (the profile's save is the screen's primary action).
 */
export function AvatarSection() {
  const { t } = useTranslation(["settings", "validation", "errors"]);
  const user = useAtomValue(userAtom);
  const updateUser = useSetAtom(updateUserAtom);
  const upload = useMutation(avatarMutations.upload());
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (next: File | null) => {
    setFormError(null);
    setSaved(null);
    const issue = next ? imageFileIssue(next) : undefined;
    // A refused image says 'Error updating image' (docs/cabinet-rules.md#messages); the field says why.
    setFormError(issue ? IMAGE_UPDATE_FAILED : null);
    setFieldError(issue ? t(issue, { ns: "validation" }) : null);
    setFile(issue ? null : next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    if (!file) {
      setFieldError(t("required", { ns: "validation" }));
      return;
    }
    upload.mutate(file, {
      onSuccess: (reply) => {
        haptics.notify("success");
        updateUser({ avatarUrl: reply.user.avatarUrl });
        setFile(null);
        setSaved(t("avatar.updated"));
      },
      onError: (error) => {
        haptics.notify("error");
        // A refused picture must not stay on screen as if it were the avatar.
        setFile(null);
        const code = isApiError(error) ? error.fields?.avatar : undefined;
        if (code) {
          setFormError(IMAGE_UPDATE_FAILED);
          return setFieldError(t(code as "imageType", { ns: "validation" }));
        }
        setFormError(isApiError(error) && error.kind === "http" ? IMAGE_UPDATE_FAILED : formErrorOf(error));
      },
    });
  };

  const src = preview ?? user?.avatarUrl ?? null;
  return (
    <Section header={t("avatar.header")} footer={t("avatar.hint")} data-section="avatar">
      <form className="settings-form avatar-form" onSubmit={submit} noValidate>
        <div className="avatar-row">
          {src ? (
            <img className="avatar-image" src={src} alt="" data-testid="avatar-image" />
          ) : (
            <span className="avatar-image avatar-empty" data-testid="avatar-image" aria-hidden="true">
              {(user?.fullName ?? user?.login ?? "?").slice(0, 1).toUpperCase()}
            </span>
          )}
          <label className="avatar-choose" htmlFor={inputId}>
            {t("avatar.choose")}
          </label>
          <input
            id={inputId}
            className="visually-hidden"
            type="file"
            name="avatar"
            accept="image/jpeg,image/png"
            aria-invalid={fieldError ? true : undefined}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
          />
        </div>
        {fieldError ? (
          <p className="field-error avatar-error" data-field-error="avatar">
            {fieldError}
          </p>
        ) : null}
        <FormErrorBanner error={formError} />
        {/* The upload shows once an image is chosen: the profile's save is the screen's one primary action. */}
        {file ? (
          <div className="form-actions">
            <Button
              type="submit"
              size="m"
              mode="bezeled"
              stretched
              loading={upload.isPending}
              data-testid="submit-avatar"
            >
              {t("avatar.submit")}
            </Button>
          </div>
        ) : null}
        <SectionSaved text={saved} />
      </form>
    </Section>
  );
}

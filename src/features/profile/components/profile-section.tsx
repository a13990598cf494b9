import { type CodeSentReply, PhoneField, type Profile, ProfileUpdateBody } from "@contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { FormFooter } from "@/components/form/form-footer";
import { type FieldError, TextField } from "@/components/form/text-field";
import { Placeholder } from "@/components/placeholder";
import { TallSkeleton } from "@/components/query-section";
import { currentLanguage } from "@/config/i18n";
import { isApiError } from "@/lib/api-client";
import { formatDate } from "@/lib/dates";
import { useApiErrorText } from "@/lib/error-text";
import { serverFieldErrors, validationError } from "@/lib/form/field-errors";
import { focusField } from "@/lib/form/focus";
import { type FormError, formErrorOf, messageOfError } from "@/lib/form/messages";
import { codeErrors, codeOf } from "@/lib/form/rules";
import { type FieldErrors, firstInvalidField, useForm } from "@/lib/form/use-form";
import { updateUserAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { profileMutations, profileQueries } from "../api/profile-queries";

/**
 * Settings data: full name, city, country, phone (a new one is confirmed by a code); registration date
 * read-only. Saved with Telegram's Main button inside Telegram, a button on the web.
 */
export function ProfileSection() {
  const { t } = useTranslation(["settings", "common"]);
  const errorText = useApiErrorText();
  const profile = useQuery(profileQueries.profile());
  return (
    <Section header={t("profile.header")} data-section="profile">
      {profile.isPending ? (
        <TallSkeleton />
      ) : profile.isError ? (
        <Placeholder description={errorText(profile.error)}>
          <Button size="s" onClick={() => void profile.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        </Placeholder>
      ) : (
        <ProfileForm profile={profile.data} />
      )}
    </Section>
  );
}

const PROFILE_FIELDS = ["fullName", "city", "country", "phone"] as const;
type ProfileValues = Record<(typeof PROFILE_FIELDS)[number], string>;
/** The texts of the profile, empty for none (sent as null). */
const TEXT_FIELDS = ["fullName", "city", "country"] as const;

function ProfileForm({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation("settings");
  const queryClient = useQueryClient();
  const updateUser = useSetAtom(updateUserAtom);
  const update = useMutation(profileMutations.update());
  const confirm = useMutation(profileMutations.confirmPhone());
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<ProfileValues>({
    initial: {
      fullName: profile.fullName ?? "",
      city: profile.city ?? "",
      country: profile.country ?? "",
      phone: profile.phone ?? "",
    },
    // The contract's rules of the call; the phone's only when it is a new one.
    validate: (values) => {
      const errors: FieldErrors<ProfileValues> = {};
      for (const name of TEXT_FIELDS) {
        const code = codeOf(ProfileUpdateBody.shape[name], values[name].trim() || null);
        if (code) errors[name] = validationError(code);
      }
      const phone = values.phone.trim();
      const phoneCode = phone !== (profile.phone ?? "") ? codeOf(PhoneField, phone) : undefined;
      if (phoneCode) errors.phone = validationError(phoneCode);
      return errors;
    },
  });
  const codeForm = useForm({ initial: { code: "" }, validate: codeErrors });
  const [formError, setFormError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pendingPhone, setPendingPhone] = useState<string | null>(profile.pendingPhone);
  // Where the new phone's code went (the user's code channel, not necessarily the phone).
  const [codeSent, setCodeSent] = useState<CodeSentReply | null>(null);
  // The server's word on the code (a wrong or expired code, no connection), until the code changes.
  const [codeRefusal, setCodeRefusal] = useState<FieldError>(null);

  // No check on leaving a field: the rules show from the first submit on.
  const field = (name: keyof ProfileValues) => ({
    ...form.field(name),
    onBlur: undefined,
    onValueChange: (value: string) => {
      form.set(name, value);
      setFormError(null);
      setSaved(null);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const invalid = firstInvalidField(PROFILE_FIELDS, form.check());
    if (invalid) {
      haptics.notify("error");
      focusField(formRef.current, invalid);
      return;
    }
    const { values } = form;
    const phone = values.phone.trim();
    const phoneChanged = phone !== (profile.phone ?? "");
    update.mutate(
      {
        fullName: values.fullName.trim() || null,
        city: values.city.trim() || null,
        country: values.country.trim() || null,
        ...(phoneChanged ? { phone } : {}),
      },
      {
        onSuccess: (reply) => {
          haptics.notify("success");
          updateUser(reply.user);
          queryClient.setQueryData(profileQueries.profile().queryKey, reply.profile);
          setPendingPhone(reply.profile.pendingPhone);
          setCodeSent(reply.phoneCode ?? null);
          setSaved(reply.phoneCode ? t("profile.codeSent") : t("saved"));
        },
        onError: (error) => {
          haptics.notify("error");
          if (isApiError(error) && error.code === "PHONE_TAKEN") {
            form.setServerErrors({ phone: { ns: "errors", key: "PHONE_TAKEN" } });
            return;
          }
          const fields = serverFieldErrors(error, PROFILE_FIELDS);
          if (Object.keys(fields).length > 0) return form.setServerErrors(fields);
          setFormError(formErrorOf(error));
        },
      },
    );
  };

  const confirmPhone = () => {
    if (confirm.isPending) return;
    if (codeForm.check().code) return;
    confirm.mutate(
      { code: codeForm.values.code.trim() },
      {
        onSuccess: (reply) => {
          haptics.notify("success");
          updateUser(reply.user);
          queryClient.setQueryData(profileQueries.profile().queryKey, reply.profile);
          setPendingPhone(null);
          codeForm.reset();
          form.set("phone", reply.profile.phone ?? "");
          setSaved(t("profile.phoneConfirmed"));
        },
        onError: (error) => {
          haptics.notify("error");
          setCodeRefusal(messageOfError(error));
        },
      },
    );
  };

  return (
    <form ref={formRef} className="settings-form" onSubmit={submit} noValidate>
      <TextField label={t("profile.fullName")} autoComplete="name" {...field("fullName")} />
      <TextField label={t("profile.city")} autoComplete="address-level2" {...field("city")} />
      <TextField label={t("profile.country")} autoComplete="country-name" {...field("country")} />
      <TextField
        label={t("profile.phone")}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder={t("profile.phonePlaceholder")}
        {...field("phone")}
      />
      {pendingPhone ? (
        <div className="settings-phone-code" data-testid="phone-code">
          <p className="settings-pending-phone">{t("profile.pendingPhone", { phone: pendingPhone })}</p>
          <CodeDestination sent={codeSent} signedIn />
          <TextField
            label={t("profile.code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            {...codeForm.field("code")}
            error={codeForm.errors.code ?? codeRefusal}
            onValueChange={(value) => {
              codeForm.set("code", value);
              setCodeRefusal(null);
            }}
          />
          <div className="form-actions">
            <Button
              type="button"
              size="m"
              mode="bezeled"
              loading={confirm.isPending}
              onClick={confirmPhone}
              data-testid="submit-phone-code"
            >
              {t("profile.confirmPhone")}
            </Button>
          </div>
        </div>
      ) : null}
      <dl className="settings-facts">
        <div>
          <dt>{t("profile.login")}</dt>
          <dd>{profile.login}</dd>
        </div>
        <div>
          <dt>{t("profile.registeredAt")}</dt>
          <dd data-testid="registered-at">{formatDate(profile.registeredAt, currentLanguage(i18n))}</dd>
        </div>
      </dl>
      <FormFooter
        form={formRef}
        submitText={t("save")}
        pending={update.isPending}
        error={formError}
        success={saved}
        submitTestId="submit-profile"
      />
    </form>
  );
}

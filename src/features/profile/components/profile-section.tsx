import { CodeField, type CodeSentReply, PhoneField, type Profile } from "@contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Section, Skeleton } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { FormErrorBanner } from "@/components/form/form-footer";
import { type FieldError, TextField } from "@/components/form/text-field";
import { Placeholder } from "@/components/placeholder";
import { SectionSaved } from "@/components/settings-field";
import { currentLanguage } from "@/config/i18n";
import { isApiError } from "@/lib/api-client";
import { formatDate } from "@/lib/dates";
import { useApiErrorText } from "@/lib/error-text";
import { type FieldErrorText, serverFieldErrors, validationError } from "@/lib/form/field-errors";
import { type FormError, formErrorOf, messageOfError } from "@/lib/form/messages";
import { codeOf } from "@/lib/form/rules";
import { updateUserAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { profileMutations, profileQueries } from "../api/profile-queries";

/** Settings data: full name, city, country, phone (a new one is confirmed by a code); registration date read-only. */
export function ProfileSection() {
  const { t } = useTranslation(["settings", "common"]);
  const errorText = useApiErrorText();
  const profile = useQuery(profileQueries.profile());
  return (
    <Section header={t("profile.header")} data-section="profile">
      {profile.isPending ? (
        <Skeleton visible>
          <div className="skeleton-block skeleton-tall" />
        </Skeleton>
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
type ProfileField = (typeof PROFILE_FIELDS)[number];

function ProfileForm({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation("settings");
  const queryClient = useQueryClient();
  const updateUser = useSetAtom(updateUserAtom);
  const update = useMutation(profileMutations.update());
  const confirm = useMutation(profileMutations.confirmPhone());
  const [values, setValues] = useState({
    fullName: profile.fullName ?? "",
    city: profile.city ?? "",
    country: profile.country ?? "",
    phone: profile.phone ?? "",
  });
  const [phoneError, setPhoneError] = useState<FieldError>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<ProfileField, FieldErrorText>>>({});
  const [formError, setFormError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pendingPhone, setPendingPhone] = useState<string | null>(profile.pendingPhone);
  const [code, setCode] = useState("");
  // Where the new phone's code went (the user's code channel, not necessarily the phone).
  const [codeSent, setCodeSent] = useState<CodeSentReply | null>(null);
  const [codeError, setCodeError] = useState<FieldError>(null);

  const set = (name: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setFieldErrors(({ [name]: _, ...rest }) => rest);
    if (name === "phone") setPhoneError(null);
    setFormError(null);
    setSaved(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const phone = values.phone.trim();
    const phoneChanged = phone !== (profile.phone ?? "");
    const phoneRule = phoneChanged ? codeOf(PhoneField, phone) : undefined;
    if (phoneRule) {
      setPhoneError(validationError(phoneRule));
      haptics.notify("error");
      return;
    }
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
            setPhoneError(messageOfError(error));
            return;
          }
          const fields = serverFieldErrors(error, PROFILE_FIELDS);
          if (Object.keys(fields).length > 0) return setFieldErrors(fields);
          setFormError(formErrorOf(error));
        },
      },
    );
  };

  const confirmPhone = () => {
    if (confirm.isPending) return;
    const codeRule = codeOf(CodeField, code.trim());
    if (codeRule) {
      setCodeError(validationError(codeRule));
      return;
    }
    confirm.mutate(
      { code: code.trim() },
      {
        onSuccess: (reply) => {
          haptics.notify("success");
          updateUser(reply.user);
          queryClient.setQueryData(profileQueries.profile().queryKey, reply.profile);
          setPendingPhone(null);
          setCode("");
          setValues((v) => ({ ...v, phone: reply.profile.phone ?? "" }));
          setSaved(t("profile.phoneConfirmed"));
        },
        onError: (error) => {
          haptics.notify("error");
          setCodeError(messageOfError(error));
        },
      },
    );
  };

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <TextField
        name="fullName"
        label={t("profile.fullName")}
        autoComplete="name"
        value={values.fullName}
        error={fieldErrors.fullName}
        onValueChange={set("fullName")}
      />
      <TextField
        name="city"
        label={t("profile.city")}
        autoComplete="address-level2"
        value={values.city}
        error={fieldErrors.city}
        onValueChange={set("city")}
      />
      <TextField
        name="country"
        label={t("profile.country")}
        autoComplete="country-name"
        value={values.country}
        error={fieldErrors.country}
        onValueChange={set("country")}
      />
      <TextField
        name="phone"
        label={t("profile.phone")}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+77010000000"
        value={values.phone}
        error={phoneError ?? fieldErrors.phone}
        onValueChange={set("phone")}
      />
      {pendingPhone ? (
        <div className="settings-phone-code" data-testid="phone-code">
          <p className="settings-pending-phone">{t("profile.pendingPhone", { phone: pendingPhone })}</p>
          <CodeDestination sent={codeSent} signedIn />
          <TextField
            name="code"
            label={t("profile.code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            error={codeError}
            onValueChange={(value) => {
              setCode(value);
              setCodeError(null);
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
      <FormErrorBanner error={formError} />
      <div className="form-actions">
        <Button type="submit" size="l" stretched loading={update.isPending} data-testid="submit-profile">
          {t("save")}
        </Button>
      </div>
      <SectionSaved text={saved} />
    </form>
  );
}

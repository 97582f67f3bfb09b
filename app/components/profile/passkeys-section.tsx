// The passkeys on /profile/security (docs/product-rules.md#passkeys): the
// list, with plain forms to rename and remove one, and adding one, shown
// only where the browser has WebAuthn: it asks the /api for options, lets
// the browser create the credential, and sends it back.
import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { KeyedForm } from "~/components/keyed-form";
import { MAX_PASSKEYS, PASSKEY_NAME_MAX } from "~/domain/passkeys";
import { useT } from "~/components/i18n";

export type PasskeyRow = {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
};

export function PasskeysSection({ passkeys }: { passkeys: PasskeyRow[] }) {
  const t = useT();
  return (
    <section className="card space-y-3" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" className="text-lg font-semibold">
        {t("passkeys.heading")}
      </h2>
      <p className="hint">{t("passkeys.intro", { max: MAX_PASSKEYS })}</p>
      {passkeys.length > 0 ? (
        <ul
          className="divide-y divide-slate-200"
          aria-label={t("passkeys.list")}
        >
          {passkeys.map((p) => (
            <li key={p.id} className="space-y-2 py-3">
              <div className="text-sm">
                <p className="font-medium break-words">{p.name}</p>
                <p className="text-slate-600">
                  {p.lastUsedAt
                    ? t("passkeys.used", {
                        made: p.createdAt,
                        last: p.lastUsedAt,
                      })
                    : t("passkeys.neverUsed", { made: p.createdAt })}
                </p>
              </div>
              <div className="flex flex-wrap items-end gap-2">
                <KeyedForm
                  method="post"
                  className="flex min-w-0 flex-1 items-end gap-2"
                >
                  <input type="hidden" name="intent" value="rename-passkey" />
                  <input type="hidden" name="passkeyId" value={p.id} />
                  <label className="min-w-0 flex-1 text-sm">
                    <span className="sr-only">
                      {t("passkeys.nameOf", { name: p.name })}
                    </span>
                    <input
                      name="name"
                      defaultValue={p.name}
                      required
                      maxLength={PASSKEY_NAME_MAX}
                      className="input w-full"
                    />
                  </label>
                  <button
                    type="submit"
                    className="btn-secondary"
                    aria-label={t("passkeys.renameName", { name: p.name })}
                  >
                    {t("passkeys.rename")}
                  </button>
                </KeyedForm>
                <KeyedForm method="post">
                  <input type="hidden" name="intent" value="remove-passkey" />
                  <input type="hidden" name="passkeyId" value={p.id} />
                  <button
                    type="submit"
                    className="btn-danger"
                    aria-label={t("passkeys.removeName", { name: p.name })}
                  >
                    {t("passkeys.remove")}
                  </button>
                </KeyedForm>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t("passkeys.none")}</p>
      )}
      {passkeys.length < MAX_PASSKEYS ? <AddPasskey /> : null}
    </section>
  );
}

function AddPasskey() {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const t = useT();
  useEffect(() => {
    setSupported(typeof window.PublicKeyCredential === "function");
  }, []);
  if (!supported) return null;

  async function add(form: HTMLFormElement) {
    const data = new FormData(form);
    setBusy(true);
    setMessage(null);
    const send = async (path: string, body: unknown) => {
      const res = await fetch(path, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "Idempotency-Key": crypto.randomUUID(),
        },
        body: JSON.stringify(body),
      });
      const json = (await res.json().catch(() => null)) as {
        error?: string;
        options?: unknown;
      } | null;
      if (!res.ok) throw new Error(json?.error ?? t("passkeys.wentWrong"));
      return json;
    };
    try {
      const password = String(data.get("password") ?? "");
      const started = await send(
        "/api/user/passkeys/options",
        password ? { password } : {},
      );
      const { startRegistration } = await import("@simplewebauthn/browser");
      const response = await startRegistration({
        optionsJSON: started?.options as Parameters<
          typeof startRegistration
        >[0]["optionsJSON"],
      });
      await send("/api/user/passkeys", {
        response,
        name: String(data.get("name") ?? ""),
      });
      form.reset();
      setMessage(t("passkeys.added"));
      await revalidator.revalidate();
    } catch (error) {
      const name = (error as { name?: string }).name;
      setMessage(
        name === "NotAllowedError" || name === "AbortError"
          ? t("passkeys.cancelled")
          : error instanceof Error
            ? error.message
            : t("passkeys.wentWrong"),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="space-y-3"
      aria-label={t("passkeys.add")}
      onSubmit={(event) => {
        event.preventDefault();
        void add(event.currentTarget);
      }}
    >
      <label className="block text-sm">
        <span className="font-medium">{t("passkeys.name")}</span>
        <input
          name="name"
          maxLength={PASSKEY_NAME_MAX}
          placeholder={t("passkeys.namePlaceholder")}
          className="input mt-1 w-full"
        />
      </label>
      <label className="block text-sm">
        <span className="font-medium">{t("passkeys.password")}</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          className="input mt-1 w-full"
        />
        <span className="hint block">{t("passkeys.passwordHint")}</span>
      </label>
      <p role="status" className="text-sm">
        {message}
      </p>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {t("passkeys.add")}
      </button>
    </form>
  );
}

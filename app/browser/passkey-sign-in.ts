// Sign in with a passkey on /auth (docs/product-rules.md#passkeys). The page
// itself ships no JavaScript: its one inline line loads this module only
// where `PublicKeyCredential` exists. It puts the 'Sign in with a passkey'
// button in its place (from a <template>: without JavaScript there is no
// button) and, where the browser has it, offers passkeys in the username
// field's autofill (conditional mediation). Either way the answer goes to
// POST /api/passkeys/sign-in, which starts an ordinary session.
import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
} from "@simplewebauthn/browser";

async function postJson(path: string, body: unknown) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = (await res.json().catch(() => null)) as Record<
    string,
    unknown
  > | null;
  return { ok: res.ok, data };
}

function say(message: string) {
  const status = document.getElementById("passkey-status");
  if (status) status.textContent = message;
}

// Options are asked one after another: the challenge cookie of the last
// one asked is the one that counts, so the button's never loses to the
// autofill's.
let asking: Promise<unknown> = Promise.resolve();

async function signIn(form: HTMLFormElement, autofill: boolean) {
  const next = asking.then(() => postJson("/api/passkeys/sign-in/options", {}));
  asking = next.catch(() => undefined);
  const options = await next;
  if (!options.ok || !options.data)
    throw new Error(String(options.data?.error));
  const response = await startAuthentication({
    optionsJSON: options.data.options as Parameters<
      typeof startAuthentication
    >[0]["optionsJSON"],
    useBrowserAutofill: autofill,
  });
  const returnTo =
    form.querySelector<HTMLInputElement>('input[name="return_to"]')?.value ??
    "";
  const done = await postJson("/api/passkeys/sign-in", { response, returnTo });
  if (!done.ok) {
    say(String(done.data?.error ?? "Sign-in with a passkey failed."));
    return;
  }
  window.location.assign(String(done.data?.redirectTo ?? "/"));
}

/** A cancelled prompt says nothing; anything else is shown beside the button. */
function failed(error: unknown) {
  const name = (error as { name?: string } | null)?.name;
  if (name === "AbortError" || name === "NotAllowedError") return;
  say("Sign-in with a passkey failed. Try again, or use your password.");
}

/**
 * Brings the button out and starts the autofill, once per page: run when
 * the module loads, and again by the page when /auth is reached inside
 * the app (a client-side navigation, where an inline script does not run).
 */
function start() {
  const template = document.getElementById(
    "passkey-sign-in",
  ) as HTMLTemplateElement | null;
  const form = document.querySelector<HTMLFormElement>(
    'form[aria-label="Login"]',
  );
  if (!template || !form || template.dataset.started) return;
  template.dataset.started = "1";
  const slot = template.content.firstElementChild?.cloneNode(true);
  if (slot instanceof HTMLElement) {
    // Beside the template, not in its place: React may own the template.
    template.after(slot);
    slot
      .querySelector("button")
      ?.addEventListener("click", () => void signIn(form, false).catch(failed));
  }
  void browserSupportsWebAuthnAutofill().then((autofill) => {
    const username = form.querySelector<HTMLInputElement>(
      'input[name="username"]',
    );
    if (!autofill || !username) return;
    username.setAttribute("autocomplete", "username webauthn");
    void signIn(form, true).catch(failed);
  });
}

(window as { fairshakePasskeySignIn?: () => void }).fairshakePasskeySignIn =
  start;
start();

import { useT } from "~/components/i18n";
import { useEffect, useState } from "react";

// "Turn on notifications" (docs/product-rules.md#notifications): permission is asked only after a tap,
// never on load (iOS also needs the app installed to the home screen). It
// lives in the notification settings route's own chunk, so no other page
// pays for it.
type State =
  "loading" | "unsupported" | "off" | "working" | "on" | "denied" | "failed";

function keyBytes(base64url: string) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function registration() {
  return navigator.serviceWorker.register("/sw.js");
}

const postJson = (url: string, method: string, body: unknown) =>
  fetch(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

export function PushButton() {
  const [state, setState] = useState<State>("loading");
  const t = useT();

  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      setState("unsupported");
      return;
    }
    registration()
      .then((reg) => reg.pushManager.getSubscription())
      .then((sub) => setState(sub ? "on" : "off"))
      .catch(() => setState("unsupported"));
  }, []);

  async function turnOn() {
    setState("working");
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        setState("denied");
        return;
      }
      const res = await fetch("/api/push/public-key");
      if (!res.ok) throw new Error("no key");
      const { publicKey } = (await res.json()) as { publicKey: string };
      const reg = await registration();
      const sub = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      });
      const saved = await postJson(
        "/api/push-subscriptions",
        "POST",
        sub.toJSON(),
      );
      if (!saved.ok) throw new Error("not saved");
      setState("on");
    } catch {
      setState("failed");
    }
  }

  async function turnOff() {
    setState("working");
    try {
      const sub = await (await registration()).pushManager.getSubscription();
      if (sub) {
        await postJson("/api/push-subscriptions", "DELETE", {
          endpoint: sub.endpoint,
        });
        await sub.unsubscribe();
      }
      setState("off");
    } catch {
      setState("failed");
    }
  }

  const note: Partial<Record<State, string>> = {
    loading: t("push.needsJs"),
    unsupported: t("push.unsupported"),
    denied: t("push.denied"),
    failed: t("push.failed"),
  };
  return (
    <div className="space-y-2" aria-live="polite">
      {state === "on" ? (
        <>
          <p className="text-slate-700">{t("push.on")}</p>
          <button type="button" className="btn-secondary" onClick={turnOff}>
            {t("push.turnOff")}
          </button>
        </>
      ) : state === "off" || state === "denied" || state === "failed" ? (
        <button type="button" className="btn-primary" onClick={turnOn}>
          {t("push.turnOn")}
        </button>
      ) : state === "working" ? (
        <button type="button" className="btn-primary" disabled>
          {t("push.working")}
        </button>
      ) : null}
      {note[state] ? (
        <p className="text-sm text-slate-600">{note[state]}</p>
      ) : null}
    </div>
  );
}

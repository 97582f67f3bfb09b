// React Router's own client entry, with one step before hydrating: the
// page's messages. The document names their file rather than carrying them
// (docs/decisions/1165-messages-in-a-file-of-their-own.md), and hydration
// must render exactly the words the server did.
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { loadMessages } from "~/framework/page-messages";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

const href = document.querySelector<HTMLMetaElement>(
  'meta[name="page-messages"]',
)?.content;

function hydrateWithMessages() {
  if (!href) return hydrate();
  // Not to be had (offline, and not kept by the service worker): the page
  // stays as served, its links and forms working as without JavaScript,
  // and hydrates once the network is back.
  loadMessages(href).then(hydrate, () =>
    addEventListener("online", hydrateWithMessages, { once: true }),
  );
}

hydrateWithMessages();

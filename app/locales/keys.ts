// Every message's key: the English catalogs' (tests/lint/catalogs.test.ts
// holds the other languages to them), so a misspelt key fails `tsc`. A
// language's messages may be split over several files of app/locales/<lang>/
// (app/framework/catalogs.server.ts reads them all); each English file is
// named here once.
import type messages from "./en/messages.json";
import type offline from "./en/offline.json";
import type social from "./en/social.json";
import type profilePages from "./en/profile-pages.json";
import type help from "./en/help.json";
import type errors from "./en/errors.json";
import type betScreens from "./en/bet-screens.json";
import type auth from "./en/auth.json";
import type email from "./en/email.json";
import type notify from "./en/notify.json";
import type sharePage from "./en/share-page.json";

export type MessageKey =
  | keyof typeof messages
  | keyof typeof offline
  | keyof typeof social
  | keyof typeof profilePages
  | keyof typeof help
  | keyof typeof errors
  | keyof typeof betScreens
  | keyof typeof auth
  | keyof typeof email
  | keyof typeof notify
  | keyof typeof sharePage;

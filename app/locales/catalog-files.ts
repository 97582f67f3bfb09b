// Every catalog file of every language, imported by name: the app is one
// Vite build, but scripts and tests also bundle the models with esbuild,
// which has no `import.meta.glob`. A new file is added here (in all four
// languages); tests/lint/catalogs.test.ts fails on a file left out.
import type { Language } from "~/domain/language";
import enAuth from "./en/auth.json";
import enBetScreens from "./en/bet-screens.json";
import enEmail from "./en/email.json";
import enErrors from "./en/errors.json";
import enHelp from "./en/help.json";
import enMessages from "./en/messages.json";
import enNotify from "./en/notify.json";
import enOffline from "./en/offline.json";
import enProfilePages from "./en/profile-pages.json";
import enServer from "./en/server.json";
import enSharePage from "./en/share-page.json";
import enSocial from "./en/social.json";
import esAuth from "./es/auth.json";
import esBetScreens from "./es/bet-screens.json";
import esEmail from "./es/email.json";
import esErrors from "./es/errors.json";
import esHelp from "./es/help.json";
import esMessages from "./es/messages.json";
import esNotify from "./es/notify.json";
import esOffline from "./es/offline.json";
import esProfilePages from "./es/profile-pages.json";
import esServer from "./es/server.json";
import esSharePage from "./es/share-page.json";
import esSocial from "./es/social.json";
import deAuth from "./de/auth.json";
import deBetScreens from "./de/bet-screens.json";
import deEmail from "./de/email.json";
import deErrors from "./de/errors.json";
import deHelp from "./de/help.json";
import deMessages from "./de/messages.json";
import deNotify from "./de/notify.json";
import deOffline from "./de/offline.json";
import deProfilePages from "./de/profile-pages.json";
import deServer from "./de/server.json";
import deSharePage from "./de/share-page.json";
import deSocial from "./de/social.json";
import ptBRAuth from "./pt-BR/auth.json";
import ptBRBetScreens from "./pt-BR/bet-screens.json";
import ptBREmail from "./pt-BR/email.json";
import ptBRErrors from "./pt-BR/errors.json";
import ptBRHelp from "./pt-BR/help.json";
import ptBRMessages from "./pt-BR/messages.json";
import ptBRNotify from "./pt-BR/notify.json";
import ptBROffline from "./pt-BR/offline.json";
import ptBRProfilePages from "./pt-BR/profile-pages.json";
import ptBRServer from "./pt-BR/server.json";
import ptBRSharePage from "./pt-BR/share-page.json";
import ptBRSocial from "./pt-BR/social.json";

/** Each language's files, by file name (a key written twice is refused). */
export const CATALOG_FILES: Readonly<
  Record<Language, Readonly<Record<string, Record<string, string>>>>
> = {
  en: {
    "auth.json": enAuth,
    "bet-screens.json": enBetScreens,
    "email.json": enEmail,
    "errors.json": enErrors,
    "help.json": enHelp,
    "messages.json": enMessages,
    "notify.json": enNotify,
    "offline.json": enOffline,
    "profile-pages.json": enProfilePages,
    "server.json": enServer,
    "share-page.json": enSharePage,
    "social.json": enSocial,
  },
  es: {
    "auth.json": esAuth,
    "bet-screens.json": esBetScreens,
    "email.json": esEmail,
    "errors.json": esErrors,
    "help.json": esHelp,
    "messages.json": esMessages,
    "notify.json": esNotify,
    "offline.json": esOffline,
    "profile-pages.json": esProfilePages,
    "server.json": esServer,
    "share-page.json": esSharePage,
    "social.json": esSocial,
  },
  de: {
    "auth.json": deAuth,
    "bet-screens.json": deBetScreens,
    "email.json": deEmail,
    "errors.json": deErrors,
    "help.json": deHelp,
    "messages.json": deMessages,
    "notify.json": deNotify,
    "offline.json": deOffline,
    "profile-pages.json": deProfilePages,
    "server.json": deServer,
    "share-page.json": deSharePage,
    "social.json": deSocial,
  },
  "pt-BR": {
    "auth.json": ptBRAuth,
    "bet-screens.json": ptBRBetScreens,
    "email.json": ptBREmail,
    "errors.json": ptBRErrors,
    "help.json": ptBRHelp,
    "messages.json": ptBRMessages,
    "notify.json": ptBRNotify,
    "offline.json": ptBROffline,
    "profile-pages.json": ptBRProfilePages,
    "server.json": ptBRServer,
    "share-page.json": ptBRSharePage,
    "social.json": ptBRSocial,
  },
};

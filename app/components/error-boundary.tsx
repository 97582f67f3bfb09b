// The one error boundary (the Epic Stack's GeneralErrorBoundary idea): a
// thrown response is answered by its status's handler, else the default
// one; anything else (a bug) by `unexpected`. Routes keep their own words by
// passing handlers, their own frame and the ways on; never a stack trace
// (the server logs it). Its words are the `errors` area, which the root
// names, so every page has them (docs/product-rules.md#languages).
import type { ComponentType, ReactNode } from "react";
import { isRouteErrorResponse, Link, type ErrorResponse } from "react-router";
import { useT, type Translate } from "~/components/i18n";

export type ErrorCopy = { title: string; message: string };
export type StatusHandler = (error: ErrorResponse, t: Translate) => ErrorCopy;
export type FrameProps = ErrorCopy & { children?: ReactNode };

/** A bug's words: a title and a way to try again, never the error itself. */
export const unexpectedCopy = (t: Translate): ErrorCopy => ({
  title: t("errors.title"),
  message: t("errors.unexpected"),
});

/** The site-wide words: a 404 of its own, else the status and the server's message. */
export const NOT_FOUND_PAGE: Record<number, StatusHandler> = {
  404: (_error, t) => ({
    title: t("errors.notFoundTitle"),
    message: t("errors.notFound"),
  }),
};

export const statusAndMessage: StatusHandler = (error, t) => ({
  title: t("errors.statusTitle", { status: error.status }),
  message:
    typeof error.data === "string" && error.data
      ? error.data
      : t("errors.unexpected"),
});

/**
 * For loaders and actions that throw `{title, message}` (the page door's
 * payloads) or a plain message (`readFormData`'s 400), else `fallback`.
 */
export const copyFromData =
  (fallback: ErrorCopy): StatusHandler =>
  (error) => {
    const payload = (
      typeof error.data === "string"
        ? { message: error.data }
        : (error.data ?? undefined)
    ) as Partial<ErrorCopy> | undefined;
    return {
      title: payload?.title ?? fallback.title,
      message: payload?.message ?? fallback.message,
    };
  };

/** A whole page, centred: for errors outside any layout. */
export function PageFrame({ title, message, children }: FrameProps) {
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-slate-700">{message}</p>
      {children}
    </main>
  );
}

/** A card inside a layout; `actions` lays out the ways on. */
export function cardFrame(actions: string): ComponentType<FrameProps> {
  return function CardFrame({ title, message, children }: FrameProps) {
    return (
      <section className="card space-y-3 text-center">
        <h1 className="text-xl font-bold">{title}</h1>
        <p className="text-slate-700">{message}</p>
        <div className={actions}>{children}</div>
      </section>
    );
  };
}

export function HomeLink({
  className = "btn-primary",
}: {
  className?: string;
}) {
  const t = useT();
  return (
    <Link to="/" className={className}>
      {t("errors.home")}
    </Link>
  );
}

export function GeneralErrorBoundary({
  error,
  statusHandlers = NOT_FOUND_PAGE,
  defaultStatusHandler = statusAndMessage,
  unexpected,
  Frame = PageFrame,
  children = <HomeLink />,
}: {
  error: unknown;
  statusHandlers?: Record<number, StatusHandler>;
  defaultStatusHandler?: StatusHandler;
  /** A bug's words; the site's own when not given. */
  unexpected?: ErrorCopy;
  Frame?: ComponentType<FrameProps>;
  /** The ways on (links); Go to Home when not given. */
  children?: ReactNode;
}) {
  const t = useT();
  const copy = isRouteErrorResponse(error)
    ? (statusHandlers[error.status] ?? defaultStatusHandler)(error, t)
    : (unexpected ?? unexpectedCopy(t));
  return <Frame {...copy}>{children}</Frame>;
}

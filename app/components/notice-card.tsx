/**
 * A page-sized notice: a heading, an optional line and the ways on (links or
 * forms). Used where a page cannot do what it is for right now (a settled
 * bet, a payment already made, a ruling not yours to make).
 */
export function NoticeCard({
  title,
  message,
  children,
}: {
  title: string;
  message?: string;
  children?: React.ReactNode;
}) {
  return (
    <section className="card space-y-3 text-center" aria-labelledby="notice">
      <h1 id="notice" className="text-xl font-bold">
        {title}
      </h1>
      {message ? <p className="text-slate-700">{message}</p> : null}
      <div className="flex flex-wrap justify-center gap-2">{children}</div>
    </section>
  );
}

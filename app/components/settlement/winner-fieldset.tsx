import { useT } from "~/components/i18n";
import { ErrorList } from "~/components/forms";

/**
 * Native radios (work without JavaScript): the creator or the participant,
 * by name, and — the third choice (docs/product-rules.md#void) — calling the bet off.
 */
export function WinnerFieldset({
  people,
  errors,
  viewerId,
  allowVoid = true,
}: {
  people: { id: number; username: string; role: string }[];
  errors?: string[];
  viewerId: number;
  allowVoid?: boolean;
}) {
  const t = useT();
  const role = (r: string) =>
    r === "creator"
      ? t("winner.creator")
      : r === "participant"
        ? t("winner.participant")
        : r;
  return (
    <fieldset
      className="space-y-2"
      aria-describedby={errors?.length ? "winner-error" : undefined}
    >
      <legend className="label">{t("winner.legend")}</legend>
      {people.map((p) => (
        <label
          key={p.id}
          className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-300 bg-white px-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
        >
          <input
            type="radio"
            name="winnerId"
            value={p.id}
            required
            className="size-5 accent-brand-600"
          />
          <span>
            {p.username}
            {p.id === viewerId ? t("winner.you") : ""}{" "}
            <span className="text-sm text-slate-500">({role(p.role)})</span>
          </span>
        </label>
      ))}
      {allowVoid ? (
        <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-300 bg-white px-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
          <input
            type="radio"
            name="winnerId"
            value="void"
            required
            className="size-5 accent-brand-600"
          />
          <span>
            {t("winner.void")}{" "}
            <span className="text-sm text-slate-500">
              {t("winner.voidHint")}
            </span>
          </span>
        </label>
      ) : null}
      <ErrorList id="winner-error" errors={errors} />
    </fieldset>
  );
}

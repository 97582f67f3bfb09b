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
  return (
    <fieldset
      className="space-y-2"
      aria-describedby={errors?.length ? "winner-error" : undefined}
    >
      <legend className="label">Who won?</legend>
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
            {p.id === viewerId ? " (you)" : ""}{" "}
            <span className="text-sm text-slate-500">({p.role})</span>
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
            Call it off{" "}
            <span className="text-sm text-slate-500">
              (no winner, no money moves)
            </span>
          </span>
        </label>
      ) : null}
      <ErrorList id="winner-error" errors={errors} />
    </fieldset>
  );
}

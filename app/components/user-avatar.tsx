import { initials } from "~/utils/initials";

/** The user's picture, or the first two letters of the username. */
export function UserAvatar({
  username,
  avatarUrl,
  size = "md",
}: {
  username: string;
  avatarUrl: string | null;
  size?: "md" | "lg";
}) {
  const box = size === "lg" ? "size-20 text-2xl" : "size-10 text-sm";
  if (avatarUrl)
    return (
      <img
        src={avatarUrl}
        alt=""
        width={size === "lg" ? 80 : 40}
        height={size === "lg" ? 80 : 40}
        className={`${box} shrink-0 rounded-full bg-slate-200 object-cover`}
        loading="lazy"
        referrerPolicy="no-referrer"
      />
    );
  return (
    <span
      aria-hidden="true"
      className={`${box} inline-flex shrink-0 items-center justify-center rounded-full bg-brand-600 font-bold text-white`}
    >
      {initials(username)}
    </span>
  );
}

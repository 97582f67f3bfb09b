import { useLocation, useNavigation } from "react-router";
import { KeyedForm } from "~/components/keyed-form";
import { useT } from "~/components/i18n";

const PENDING = {
  send: "friends.sending",
  accept: "friends.accepting",
  decline: "friends.declining",
} as const;

/**
 * One friend action as a POST form to the current route, which answers by
 * redirecting back here with a toast (no JavaScript needed).
 */
export function FriendForm({
  intent,
  friendId,
  label,
  secondary,
  ariaLabel,
}: {
  intent: keyof typeof PENDING;
  friendId: number;
  label: string;
  secondary?: boolean;
  ariaLabel?: string;
}) {
  const location = useLocation();
  const t = useT();
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("friendId") === String(friendId);
  return (
    <KeyedForm method="post" action={location.pathname + location.search}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="friendId" value={friendId} />
      <input
        type="hidden"
        name="return_to"
        value={location.pathname + location.search}
      />
      <button
        type="submit"
        className={secondary ? "btn-secondary" : "btn-primary"}
        aria-label={ariaLabel}
        disabled={pending}
      >
        {pending ? t(PENDING[intent]) : label}
      </button>
    </KeyedForm>
  );
}

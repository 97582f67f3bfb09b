// A celebration for about three seconds, CSS only (an enhancement: it
// exists only when JavaScript runs the page after a successful payment).
const COLORS = ["#047857", "#f59e0b", "#3b82f6", "#ef4444", "#a855f7"];
const PIECES = Array.from({ length: 36 }, (_, i) => i);

export function Confetti() {
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none fixed inset-0 z-50 overflow-hidden"
    >
      <style>{`@keyframes fs-confetti{0%{transform:translateY(-10vh) rotate(0)}100%{transform:translateY(110vh) rotate(720deg);opacity:0}}`}</style>
      {PIECES.map((i) => (
        <span
          key={i}
          style={{
            position: "absolute",
            top: 0,
            left: `${(i * 137) % 100}%`,
            width: 8,
            height: 12,
            background: COLORS[i % COLORS.length],
            animation: `fs-confetti ${2 + (i % 5) * 0.2}s ease-in ${(i % 7) * 0.05}s forwards`,
          }}
        />
      ))}
    </div>
  );
}

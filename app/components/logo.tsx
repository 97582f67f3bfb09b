export function Logo({ className = "" }: { className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-2 text-xl font-extrabold tracking-tight text-brand-700 ${className}`}
    >
      <svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32">
        <rect width="32" height="32" rx="8" fill="#047857" />
        <path
          d="M9 17l4 4 10-10"
          stroke="#fff"
          strokeWidth="3.5"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      Fairshake
    </span>
  );
}

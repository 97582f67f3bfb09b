import { Link } from "react-router";

// Tabs that change what a page shows are links with the state in the URL
// (docs/product-rules.md#forms-and-messages): they work without JavaScript and can be shared and reloaded.
export function LinkTabs({
  label,
  tabs,
  current,
}: {
  label: string;
  tabs: { id: string; label: React.ReactNode; to: string }[];
  current: string;
}) {
  return (
    <nav aria-label={label} className="tabs">
      {tabs.map((tab) => (
        <Link
          key={tab.id}
          to={tab.to}
          className="tab"
          aria-current={tab.id === current ? "page" : undefined}
          preventScrollReset
          replace
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}

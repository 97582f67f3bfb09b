// What Fairshake promises, beside the sign-in and registration forms on /auth.
export function MarketingPanel() {
  const promises = [
    [
      "Safe and secure payments",
      "Settle up by card once you both agree on the result.",
    ],
    [
      "Bet on anything",
      "Sports, games, a dare between friends: you set the terms.",
    ],
    ["Easy sharing", "Send a 6-character code, a link or a QR code."],
    [
      "Fair dispute resolution",
      "Nobody wins on their own word: both sides approve the winner.",
    ],
  ];
  return (
    <aside
      className="hidden flex-col justify-center bg-brand-800 p-12 text-white lg:flex"
      aria-label="About Fairshake"
    >
      <h2 className="mb-8 text-4xl font-bold">Bet with Friends, Not Bookies</h2>
      <ul className="space-y-6">
        {promises.map(([title, text]) => (
          <li key={title}>
            <p className="text-lg font-semibold">{title}</p>
            <p className="text-brand-100">{text}</p>
          </li>
        ))}
      </ul>
    </aside>
  );
}

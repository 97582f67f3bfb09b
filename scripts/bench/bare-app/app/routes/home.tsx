export function meta() {
  return [{ title: "Bare React Router app" }];
}

export function loader() {
  return { now: new Date().toISOString() };
}

export default function Home({ loaderData }: { loaderData: { now: string } }) {
  return (
    <main>
      <h1>A bare React Router 7 page</h1>
      <p className="big">Rendered at {loaderData.now}</p>
      <p>
        The yardstick for Fairshake&apos;s bench: the same framework, server and
        compression, and nothing else.
      </p>
    </main>
  );
}

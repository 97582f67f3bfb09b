// The bench tools' `--name=value` options.

/** The value given as `--name=value`, else `fallback`. */
export function option(name, fallback) {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : fallback;
}

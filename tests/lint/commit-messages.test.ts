// Commit subjects are at most 72 characters, with the why in the body
// (README.md#contributing): `git log --oneline` stays readable. Checked on
// every commit after the one where the rule began; older history stays as
// it was written.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const RULE_BEGAN = "d8d2716";
const MAX_SUBJECT = 72;

const git = (...args: string[]) =>
  execFileSync("git", args, { encoding: "utf8", stdio: "pipe" });

/** The commits since the rule began; in a shallow clone without it, every commit the clone has. */
function subjectsSinceTheRule(): string[] {
  let range = `${RULE_BEGAN}..HEAD`;
  try {
    git("cat-file", "-e", `${RULE_BEGAN}^{commit}`);
  } catch {
    range = "HEAD";
  }
  return git("log", "--format=%h %s", range).split("\n").filter(Boolean);
}

describe("commit messages", () => {
  it(`subjects since ${RULE_BEGAN} are at most ${MAX_SUBJECT} characters`, () => {
    const tooLong = subjectsSinceTheRule().filter(
      (line) => line.slice(line.indexOf(" ") + 1).length > MAX_SUBJECT,
    );
    expect(tooLong).toEqual([]);
  });
});

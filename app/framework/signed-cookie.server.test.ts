// The synchronous reader answers what React Router's createCookie().parse
// answers, for cookies React Router wrote and for forged or odd ones.
import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { signedCookie } from "./signed-cookie.server";

const options = { path: "/", httpOnly: true, secrets: ["s3cret"] };
const ours = signedCookie("fs_test", options);
const theirs = createCookie("fs_test", options);
const other = createCookie("fs_test", { ...options, secrets: ["other"] });

async function pair(value: unknown) {
  return (await theirs.serialize(value)).split(";")[0]!;
}

describe("signed cookies read synchronously", () => {
  it("reads what React Router wrote, and answers as its parse does", async () => {
    const values: unknown[] = [
      "IjFBM1B0R004Qi1FNWN1R0V4ZlROOFl4c2JvOU9aWmF2c2Nn",
      { id: "x", title: "Café ☕ — done", type: "success" },
      42,
      "",
    ];
    const headers: (string | null)[] = [null, "", "a=b", "fs_test=", "fs_test"];
    for (const value of values) {
      const cookie = await pair(value);
      const [name, v] = [cookie.slice(0, 7), cookie.slice(8)];
      const last = v.slice(-1);
      const flipped = v.slice(0, -1) + (last === "A" ? "B" : "A");
      const sig = v.lastIndexOf(".");
      headers.push(
        cookie,
        `a=1; ${cookie}; b=2`,
        ` \t${name} = ${v} ;x=y`,
        `${name}="${v}"`,
        `${cookie}; fs_test=other`,
        `fs_test=junk; ${cookie}`,
        `${name}=${flipped}`,
        `${name}=${v}=`,
        `${name}=${v.slice(0, sig)}`,
        `${name}=${v.slice(0, sig)}.`,
        `${name}=${encodeURIComponent(v)}`,
        (await other.serialize(value)).split(";")[0]!,
        `x=1;${name}=${v}`,
        `bad;${name}=${v}`,
      );
    }
    // Signed with the right secret but not JSON inside.
    headers.push(
      `fs_test=${encodeURIComponent(
        (await createCookie("fs_test", options).serialize("x")).split("=")[1]!,
      )}`,
    );
    for (const header of headers)
      expect(ours.read(header), String(header)).toEqual(
        await theirs.parse(header),
      );
    expect(ours.read(await pair("token-1"))).toBe("token-1");
  });

  it("writes what React Router writes", async () => {
    expect(await ours.serialize("v")).toBe(await theirs.serialize("v"));
  });
});

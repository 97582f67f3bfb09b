import { describe, expect, it } from "vitest";
import { CONTROL_TEXT, UNSTORABLE_TEXT, refusedText } from "./validation";

describe("text no input takes (docs/decisions/1062-control-characters-refused-at-the-door.md)", () => {
  it("refuses every C0 control but tab and line breaks, DEL and the C1 controls", () => {
    for (let code = 0; code <= 0x9f; code += 1) {
      const ch = String.fromCharCode(code);
      const refused = refusedText([["title", `a${ch}b`]]);
      const control =
        (code < 0x20 && ![0x09, 0x0a, 0x0d].includes(code)) || code >= 0x7f;
      expect(refused?.message ?? null, `U+${code.toString(16)}`).toBe(
        control ? CONTROL_TEXT : null,
      );
    }
  });

  it("names the field, nested fields and names too; a lone surrogate cannot be stored", () => {
    expect(
      refusedText([
        ["ok", "fine\ttext\r\n"],
        ["bad", "a\u0000"],
        ["keys", { p256dh: "x\u0001" }],
        ["list", ["y", "z\u007f"]],
        ["na\u0000me", "x"],
      ])?.fieldErrors,
    ).toEqual({
      bad: [CONTROL_TEXT],
      "keys.p256dh": [CONTROL_TEXT],
      "list.1": [CONTROL_TEXT],
      "na\u0000me": [CONTROL_TEXT],
    });
    expect(refusedText([["title", "half \ud800"]])).toEqual({
      message: UNSTORABLE_TEXT,
      fieldErrors: { title: [UNSTORABLE_TEXT] },
    });
  });

  it("leaves a password as typed: it is hashed, never stored or looked up", () => {
    expect(
      refusedText([
        ["password", "a\u0000"],
        ["currentPassword", "\u0007"],
        ["confirmPassword", "\u0001"],
      ]),
    ).toBeNull();
  });

  it("walks a body nested thousands deep without overflowing", () => {
    let value: unknown = "deep\u0000";
    for (let i = 0; i < 5_000; i += 1) value = { a: value };
    expect(refusedText([["root", value]])?.message).toBe(CONTROL_TEXT);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { getUserById, hashPassword } from "./user.server";
import {
  changedProfileFields,
  setPaymentMethod,
  updateProfile,
} from "./profile.server";
import { AVATAR_MAX_BYTES, AVATAR_MESSAGES } from "./avatar-rules";
import {
  getAvatar,
  processAvatar,
  saveAvatar,
  sniffImageType,
} from "./avatar.server";
import { pngBomb } from "../../../tests/support/images";
import { expectRejection } from "../../../tests/support/expect-error";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

const PASSWORD = "profile-test-password";
let passwordHash = "";
beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
});

let n = 0;
async function makeUser(name?: string) {
  n += 1;
  const username = name ?? `prof${n}`;
  const row = (await sqlite
    .prepare(
      "INSERT INTO users (username, email, password_hash) VALUES (?, ?, ?) RETURNING id",
    )
    .get(username, `${username}@example.com`, passwordHash)) as { id: number };
  return row.id;
}

describe("updateProfile", () => {
  it("applies only changed fields", async () => {
    const id = await makeUser("prof_only");
    const { user, changed } = await updateProfile({
      userId: id,
      input: {
        username: "prof_only",
        email: "new_only@example.com",
        avatarUrl: "",
        currentPassword: PASSWORD,
      },
    });
    expect(changed).toEqual(["email"]);
    expect(user.email).toBe("new_only@example.com");
    expect(user.username).toBe("prof_only");
  });

  it("does nothing when nothing changed", async () => {
    const id = await makeUser("prof_same");
    const before = (await getUserById(id))!;
    const { changed } = await updateProfile({
      userId: id,
      input: { username: "prof_same", email: before.email },
    });
    expect(changed).toEqual([]);
  });

  it("keeps unchanged invalid-looking fields out of validation", () => {
    expect(
      changedProfileFields(
        { username: "a", email: "e@x.io", avatarUrl: null },
        { username: "a", avatarUrl: "  ", email: undefined },
      ),
    ).toEqual({});
  });

  it("stores an empty avatar as null", async () => {
    const id = await makeUser();
    await updateProfile({
      userId: id,
      input: { avatarUrl: "https://example.com/me.png" },
    });
    expect((await getUserById(id))!.avatarUrl).toBe(
      "https://example.com/me.png",
    );
    await updateProfile({ userId: id, input: { avatarUrl: "" } });
    expect((await getUserById(id))!.avatarUrl).toBeNull();
  });

  it("answers 'Validation Error' with the product's messages per field", async () => {
    const id = await makeUser();
    const error = await expectRejection(
      () =>
        updateProfile({
          userId: id,
          input: {
            username: "ab",
            email: "not-an-email",
            avatarUrl: "javascript:alert(1)",
          },
        }),
      400,
      "Validation Error",
    );
    expect(error!.fieldErrors).toEqual({
      username: ["Username must be at least 3 characters"],
      email: ["Please enter a valid email address"],
      avatarUrl: ["Please enter a valid URL"],
    });
    const long = await expectRejection(
      () => updateProfile({ userId: id, input: { username: "x".repeat(51) } }),
      400,
    );
    expect(long!.fieldErrors).toEqual({
      username: ["Username must be less than 50 characters"],
    });
    await expectRejection(
      () =>
        updateProfile({
          userId: id,
          input: { avatarUrl: "data:image/png;base64,AAAA" },
        }),
      400,
    );
  });

  it("refuses a taken username or email (409), whatever the case", async () => {
    await makeUser("prof_taken");
    const id = await makeUser();
    await expectRejection(
      () => updateProfile({ userId: id, input: { username: "PROF_TAKEN" } }),
      409,
      "Username already taken",
    );
    await expectRejection(
      () =>
        updateProfile({
          userId: id,
          input: {
            email: "Prof_Taken@example.com",
            currentPassword: PASSWORD,
          },
        }),
      409,
      "Email already registered",
    );
  });

  it("lets you change the case of your own username", async () => {
    const id = await makeUser("prof_case");
    const { user } = await updateProfile({
      userId: id,
      input: { username: "Prof_Case" },
    });
    expect(user.username).toBe("Prof_Case");
  });

  it("refuses pointing at someone else's uploaded avatar", async () => {
    const id = await makeUser();
    await expectRejection(
      () =>
        updateProfile({
          userId: id,
          input: { avatarUrl: `/avatars/${id + 1000}?v=abc` },
        }),
      400,
    );
  });
});

describe("setPaymentMethod", () => {
  it("sets the flag to the state sent", async () => {
    const id = await makeUser();
    let user = await setPaymentMethod({
      userId: id,
      input: { method: "venmo", connected: true },
    });
    expect(user.venmoConnected).toBe(true);
    expect(user.paypalConnected).toBe(false);
    user = await setPaymentMethod({
      userId: id,
      input: { method: "venmo", connected: true },
    });
    expect(user.venmoConnected).toBe(true);
    user = await setPaymentMethod({
      userId: id,
      input: { method: "venmo", connected: false },
    });
    expect(user.venmoConnected).toBe(false);
  });

  it("refuses an unknown method or a non-boolean state (400)", async () => {
    const id = await makeUser();
    await expectRejection(
      async () =>
        setPaymentMethod({
          userId: id,
          input: { method: "bitcoin", connected: true },
        }),
      400,
      "Unknown payment method",
    );
    await expectRejection(
      async () =>
        setPaymentMethod({
          userId: id,
          input: { method: "card", connected: "yes" },
        }),
      400,
      "connected must be true or false",
    );
  });
});

describe("avatars", () => {
  const png = (w: number, h: number) =>
    sharp({
      create: { width: w, height: h, channels: 3, background: "#047857" },
    })
      .png()
      .toBuffer();

  it("sniffs types by magic bytes, not names", async () => {
    expect(sniffImageType(await png(4, 4))).toBe("image/png");
    expect(
      sniffImageType(
        await sharp({
          create: { width: 4, height: 4, channels: 3, background: "#fff" },
        })
          .jpeg()
          .toBuffer(),
      ),
    ).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("GIF89a...."))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("<svg xmlns='…'></svg>"))).toBeNull();
    expect(sniffImageType(Buffer.from("%PDF-1.7"))).toBeNull();
  });

  it("re-encodes to a 256×256 WebP without metadata", async () => {
    const input = await sharp({
      create: { width: 640, height: 480, channels: 3, background: "#f00" },
    })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret-location" } } })
      .toBuffer();
    const out = await processAvatar(input);
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe("webp");
    expect([meta.width, meta.height]).toEqual([256, 256]);
    expect(meta.exif).toBeUndefined();
    expect(out.includes(Buffer.from("secret-location"))).toBe(false);
  });

  it("refuses a non-image, an oversized file and a pixel bomb", async () => {
    await expectRejection(
      () => processAvatar(Buffer.from("just text, renamed to .png")),
      400,
    );
    await expectRejection(
      () => processAvatar(Buffer.alloc(AVATAR_MAX_BYTES + 1, 0x89)),
      413,
    );
    // 20000×20000 = 400 megapixels declared in a few hundred bytes.
    const bomb = pngBomb();
    expect(bomb.byteLength).toBeLessThan(2000);
    await expectRejection(
      () => processAvatar(bomb),
      400,
      AVATAR_MESSAGES.tooManyPixels,
    );
  });

  it("stores the avatar and points avatarUrl at it", async () => {
    const id = await makeUser();
    const user = await saveAvatar({ userId: id, bytes: await png(300, 200) });
    expect(user.avatarUrl).toMatch(new RegExp(`^/avatars/${id}\\?v=`));
    const stored = (await getAvatar(id))!;
    expect(stored.contentType).toBe("image/webp");
    expect(user.avatarUrl!.endsWith(stored.etag)).toBe(true);
    // replacing it by a link frees the stored image
    await updateProfile({
      userId: id,
      input: { avatarUrl: "https://example.com/a.png" },
    });
    expect(await getAvatar(id)).toBeNull();
  });
});

// The digest a secret token is stored as: a session's token, an email
// verification link's, a password reset link's. The database holds only
// its SHA-256, so a copy of the tables signs no one in and opens no link;
// the token itself is 32 random bytes, so no salt or slow hash is needed.
import crypto from "node:crypto";

/** The stored digest of `token` (hex SHA-256). */
export const hashToken = (token: string) =>
  crypto.createHash("sha256").update(token).digest("hex");

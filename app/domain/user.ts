// Client-safe user shapes: what another person may see of a user.
export type PublicUser = {
  id: number;
  username: string;
  avatarUrl: string | null;
  winCount: number;
  lossCount: number;
};

// A username's and a password's lengths (docs/product-rules.md#accounts),
// for the schemas that check them and the forms that show them.
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;

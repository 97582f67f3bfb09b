// Client-safe user shapes: what another person may see of a user.
export type PublicUser = {
  id: number;
  username: string;
  avatarUrl: string | null;
  winCount: number;
  lossCount: number;
};

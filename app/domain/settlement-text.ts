// Settlement wording and limits that both the server and the pages use
// (the pages cannot import *.server modules).
export const SETTLEMENT_NOT_FOUND = "Settlement Not Found";
export const NOTES_MAX = 500;

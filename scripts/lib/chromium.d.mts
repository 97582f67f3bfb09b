export const CHROMIUM_PATH: string;
export const CHROMIUM_FLAGS: string[];
export const PHONE: {
  width: number;
  height: number;
  deviceScaleFactor: number;
};

// Reads a page form's body. A body the browser would never send (text/plain,
// JSON, broken multipart) is the sender's mistake: a 400 with a plain message,
// never the 500 that `request.formData()` throwing would become. So is a
// field holding a control character (a NUL): refused here, before any query
// reads it, as the /api's `readJson` refuses it
// (docs/decisions/1062-control-characters-refused-at-the-door.md).
import { data } from "react-router";
import { refusedText } from "~/utils/validation";

export const UNREADABLE_FORM =
  "This form could not be read. Please reload the page and try again.";

export const CONTROL_FORM =
  "This form contains a control character (such as NUL). Please remove it and try again.";

export async function readFormData(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data(UNREADABLE_FORM, {
      status: 400,
      statusText: "Bad Request",
    });
  }
  const texts: [string, string][] = [];
  for (const [name, value] of form)
    texts.push([name, typeof value === "string" ? value : ""]);
  if (refusedText(texts))
    throw data(CONTROL_FORM, { status: 400, statusText: "Bad Request" });
  return form;
}

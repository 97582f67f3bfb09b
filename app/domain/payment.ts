// Client-safe words of the payment screens, written once: the checkout page,
// its Stripe form in the browser and the providers share them.

/** The title of a payment refusal without its own. */
export const PAYMENT_ERROR_TITLE = "Payment error";
/** The title of a card the provider refused. */
export const PAYMENT_FAILED_TITLE = "Payment failed";
/** The checkout screen's title when the bet cannot be paid. */
export const PAYMENT_INIT_FAILED_TITLE = "Failed to initialize payment";
/** What a payment that went wrong for no reason we can name says. */
export const PAYMENT_WENT_WRONG =
  "Something went wrong while processing your payment.";

/** A refusal's title by its status: the card's fault (400, 402) or not. */
export function paymentFailureTitle(status: number) {
  return status === 400 || status === 402
    ? PAYMENT_FAILED_TITLE
    : PAYMENT_ERROR_TITLE;
}

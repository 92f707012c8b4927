/** A hosted payment whose customer chooses the asset on the page (core/checkout/customer-choice.ts). */
export interface CustomerCurrencyChoiceTable {
  payment_id: string;
  created_at: number;
}

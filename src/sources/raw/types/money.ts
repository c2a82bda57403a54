/** Money: a number, or localized text such as "$139", "€1,234.50", "US$99" (see normalize/money.ts). */
export type RawMoney = number | string;

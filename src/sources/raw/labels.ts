// How each platform words what the unified schema encodes: amenity labels, property-type labels,
// trip types, money text. The simulated upstream writes raw rows with these, so the normalizers
// read realistic text; the normalize tests assert every label here reads back to its token.
import type { EnabledPlatform } from '../../core/platforms.js';
import type { Amenity, PropertyType } from '../../core/schemas/resources.js';
import { regionName } from '../../core/intl.js';

type Labels<T extends string> = Record<T, Record<EnabledPlatform, string>>;
const row = (airbnb: string, booking: string, vrbo: string, google: string) => ({ airbnb, booking, vrbo, google });

export const AMENITY_LABELS: Labels<Amenity> = {
  pool: row('Pool', 'Outdoor swimming pool', 'Pool', 'Pool'),
  hot_tub: row('Hot tub', 'Hot tub/Jacuzzi', 'Hot Tub', 'Hot tub'),
  kitchen: row('Kitchen', 'Kitchenette', 'Kitchen', 'Kitchen'),
  wifi: row('Wifi', 'Free WiFi', 'WiFi', 'Free Wi-Fi'),
  air_conditioning: row('Air conditioning', 'Air conditioning', 'Air Conditioning', 'Air-conditioned'),
  heating: row('Heating', 'Heating', 'Heater', 'Heating'),
  parking_free: row('Free parking on premises', 'Free parking', 'Free Parking', 'Free parking'),
  parking_paid: row('Paid parking off premises', 'Private parking at a charge', 'Paid Parking', 'Paid parking'),
  pet_friendly: row('Pets allowed', 'Pets allowed', 'Pets Considered', 'Pet-friendly'),
  washer: row('Washer', 'Washing machine', 'Washing Machine', 'Washer'),
  dryer: row('Dryer', 'Tumble dryer', 'Clothes Dryer', 'Dryer'),
  ev_charger: row('EV charger', 'Electric vehicle charging station', 'EV Charger', 'EV charger'),
  gym: row('Gym', 'Fitness centre', 'Gym', 'Fitness center'),
  sea_view: row('Sea view', 'Sea view', 'Ocean View', 'Ocean view'),
  beachfront: row('Beach access – Beachfront', 'Beachfront', 'Beachfront', 'Beachfront'),
  balcony: row('Patio or balcony', 'Balcony', 'Balcony', 'Balcony'),
  bbq: row('BBQ grill', 'BBQ facilities', 'Barbecue Grill', 'BBQ'),
  workspace: row('Dedicated workspace', 'Desk', 'Laptop-friendly Workspace', 'Workspace'),
  crib: row('Crib', 'Cot', 'Crib', 'Crib'),
  elevator: row('Elevator', 'Lift', 'Elevator', 'Elevator'),
  wheelchair_accessible: row('Step-free access', 'Facilities for disabled guests', 'Wheelchair Accessible', 'Wheelchair accessible'),
  smoke_alarm: row('Smoke alarm', 'Smoke alarms', 'Smoke Detector', 'Smoke alarm'),
  breakfast: row('Breakfast', 'Breakfast', 'Breakfast', 'Free breakfast'),
  spa: row('Sauna', 'Spa and wellness centre', 'Spa', 'Spa'),
  garden: row('Private backyard – Fully fenced', 'Garden', 'Garden', 'Garden'),
  fireplace: row('Indoor fireplace', 'Fireplace', 'Fireplace', 'Fireplace'),
  dishwasher: row('Dishwasher', 'Dishwasher', 'Dishwasher', 'Dishwasher'),
  self_check_in: row('Self check-in', 'Self check-in', 'Keyless Entry', 'Self check-in'),
  non_smoking: row('Smoking not allowed', 'Non-smoking rooms', 'No Smoking', 'Smoke-free property'),
  family_friendly: row('Children’s books and toys', 'Family rooms', 'Children Welcome', 'Kid-friendly'),
};

export const TYPE_LABELS: Labels<PropertyType> = {
  hotel: row('Room in boutique hotel', 'Hotel', 'Hotel', 'Hotel'),
  apartment: row('Entire rental unit', 'Apartment', 'Condo', 'Apartment'),
  house: row('Entire home', 'Holiday home', 'House', 'House'),
  villa: row('Entire villa', 'Villa', 'Villa', 'Villa'),
  cottage: row('Entire cottage', 'Chalet', 'Cabin', 'Cottage'),
  other: row('Camper/RV', 'Guest house', 'Boat', 'Guest house'),
};

/** Trip types as booking's and vrbo's review cards word them. */
export const TRIP_LABELS: Record<string, { booking: string; vrbo: string }> = {
  couple: { booking: 'Couple', vrbo: 'Traveled as a couple' },
  family: { booking: 'Family', vrbo: 'Traveled with family' },
  solo: { booking: 'Solo traveller', vrbo: 'Traveled solo' },
  business: { booking: 'Business traveller', vrbo: 'Traveled for work' },
  group: { booking: 'Group', vrbo: 'Traveled with friends' },
};

const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', KRW: '₩', INR: '₹', BRL: 'R$', AUD: 'A$', CAD: 'CA$', MXN: 'MX$', TRY: '₺', THB: '฿' };

/**
 * An amount as en-locale money text: "$1,234.50", "¥15,000", "CHF 99". Whole amounts show no
 * decimals, cents two; any other fraction its shortest exact digits, with a trailing 0 when there
 * are exactly three so it cannot read as a thousands group ("1.234" is 1234 in de-DE).
 */
export function formatMoney(amount: number, currency: string): string {
  const sign = amount < 0 ? '-' : '';
  const n = Math.abs(amount);
  let text = Number.isInteger(n) ? n.toFixed(0) : Number(n.toFixed(2)) === n ? n.toFixed(2) : String(n);
  if (/e/i.test(text)) text = n.toFixed(2); // not a price anyone shows; kept readable
  const [whole = '0', frac] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = frac === undefined ? '' : `.${frac.length === 3 ? `${frac}0` : frac}`;
  const symbol = SYMBOLS[currency];
  return symbol ? `${sign}${symbol}${grouped}${fraction}` : `${sign}${currency} ${grouped}${fraction}`;
}

/** Booking writes the room currency as a symbol with trailing whitespace ("€ "). */
export function bookingSymbol(currency: string): string {
  return `${SYMBOLS[currency] ?? currency} `;
}

/** A country's English name for display text ("Portugal"); the normalizers never read it back. */
export function countryName(code: string | null): string | null {
  if (code === null) return null;
  return regionName(code.toUpperCase()) ?? code;
}

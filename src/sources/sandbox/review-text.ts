// Phrase banks of sandbox reviews, per language and sentiment: titles, texts, booking's
// liked/disliked lines, owner responses and reviewer first names.

export type ReviewLang = 'en' | 'pt' | 'fr' | 'de' | 'es';
export type Sentiment = 'pos' | 'mid' | 'neg';

type Bank = Record<Sentiment, readonly string[]>;

export const TITLES: Record<ReviewLang, Bank> = {
  en: {
    pos: ['Exceptional', 'Superb stay', 'Would come back in a heartbeat', 'Perfect location', 'Wonderful', 'Home away from home'],
    mid: ['Good value', 'Pleasant stay', 'Decent for a few nights', 'Nice but a bit noisy'],
    neg: ['Disappointing', 'Not as described', 'Okay for one night', 'Needs some work'],
  },
  pt: { pos: ['Excelente', 'Estadia fantástica', 'Adorámos'], mid: ['Bom', 'Boa relação qualidade-preço'], neg: ['Dececionante', 'Não recomendo'] },
  fr: { pos: ['Exceptionnel', 'Séjour parfait', 'Superbe adresse'], mid: ['Bien', 'Correct pour le prix'], neg: ['Décevant', 'Pas à la hauteur'] },
  de: { pos: ['Hervorragend', 'Traumhafter Aufenthalt', 'Sehr empfehlenswert'], mid: ['Gut', 'Solide Unterkunft'], neg: ['Enttäuschend', 'Leider nicht gut'] },
  es: { pos: ['Excepcional', 'Estancia perfecta', 'Nos encantó'], mid: ['Bien', 'Buena relación calidad-precio'], neg: ['Decepcionante', 'No lo recomiendo'] },
};

const EN_OPENERS: Bank = {
  pos: [
    'We had a fantastic stay.',
    'Everything was spotless and exactly as pictured.',
    'The location could not be better.',
    'Our second time here and it was just as good.',
    'A lovely place with a real sense of character.',
    'Check-in was smooth and quick.',
  ],
  mid: ['Overall a good stay.', 'The place was fine for a short trip.', 'Good location, but the room was smaller than expected.', 'Mostly as described.'],
  neg: ['Unfortunately the place did not match the photos.', 'The room was not clean when we arrived.', 'Very noisy at night.', 'Check-in took over an hour.'],
};
const EN_DETAILS: Bank = {
  pos: [
    'The bed was very comfortable and we slept well.',
    'Great restaurants and cafés within a short walk.',
    'The host was friendly and quick to reply.',
    'The kitchen had everything we needed.',
    'Breakfast was excellent.',
    'Quiet at night despite being central.',
    'We would happily stay again.',
  ],
  mid: ['The Wi-Fi was a little slow.', 'The shower pressure could be better.', 'Some street noise in the evening.', 'Good value for the price.'],
  neg: ['The Wi-Fi did not work for most of our stay.', 'The air conditioning was broken.', 'We would not stay here again.', 'The photos are clearly old.'],
};
const OTHER_TEXTS: Record<Exclude<ReviewLang, 'en'>, Bank> = {
  pt: {
    pos: ['Tudo impecável e muito bem localizado.', 'O anfitrião foi muito simpático e prestável.', 'Voltaremos com certeza!'],
    mid: ['Boa localização, mas o quarto era pequeno.', 'Estadia agradável, algum barulho à noite.'],
    neg: ['O apartamento não correspondia às fotos.', 'Pouca limpeza e muito barulho.'],
  },
  fr: {
    pos: ['Tout était parfait, très bien situé.', 'Hôte très accueillant et réactif.', 'Nous reviendrons avec plaisir !'],
    mid: ['Bon emplacement, mais un peu bruyant.', 'Correct dans l’ensemble, literie moyenne.'],
    neg: ['Le logement ne correspond pas aux photos.', 'Propreté à revoir.'],
  },
  de: {
    pos: ['Alles war sauber und die Lage ist top.', 'Sehr freundlicher Gastgeber.', 'Wir kommen gerne wieder!'],
    mid: ['Gute Lage, aber etwas laut.', 'Insgesamt in Ordnung, das WLAN war langsam.'],
    neg: ['Die Unterkunft entsprach nicht den Fotos.', 'Leider nicht sauber.'],
  },
  es: {
    pos: ['Todo impecable y muy bien ubicado.', 'El anfitrión fue muy amable.', '¡Volveremos seguro!'],
    mid: ['Buena ubicación, pero algo ruidoso.', 'Bien en general, la cama era incómoda.'],
    neg: ['El alojamiento no se parecía a las fotos.', 'Limpieza muy mejorable.'],
  },
};

/** A review text: two English sentences, or one sentence in the other languages. */
export function reviewText(lang: ReviewLang, s: Sentiment, pick: <T>(xs: readonly T[]) => T): string {
  if (lang === 'en') return `${pick(EN_OPENERS[s])} ${pick(EN_DETAILS[s])}`;
  return pick(OTHER_TEXTS[lang][s]);
}

export const LIKED: Record<ReviewLang, readonly string[]> = {
  en: ['Great location and very friendly staff.', 'The breakfast was excellent.', 'Clean, comfortable room.', 'Lovely view from the balcony.', 'Quiet and close to everything.'],
  pt: ['Ótima localização e staff simpático.', 'Pequeno-almoço excelente.'],
  fr: ['Très bon emplacement, personnel aimable.', 'Petit-déjeuner excellent.'],
  de: ['Top Lage und freundliches Personal.', 'Sehr gutes Frühstück.'],
  es: ['Ubicación estupenda y personal amable.', 'El desayuno era excelente.'],
};

export const DISLIKED: Record<ReviewLang, readonly string[]> = {
  en: ['The room was a bit small.', 'Street noise at night.', 'The Wi-Fi was slow.', 'Nothing, everything was perfect.', 'Breakfast was pricey.'],
  pt: ['O quarto era pequeno.', 'Algum barulho da rua.'],
  fr: ['Chambre un peu petite.', 'Bruit de la rue la nuit.'],
  de: ['Das Zimmer war etwas klein.', 'Straßenlärm in der Nacht.'],
  es: ['La habitación era pequeña.', 'Ruido de la calle por la noche.'],
};

export const RESPONSES: Record<ReviewLang, Record<'thanks' | 'sorry', readonly string[]>> = {
  en: {
    thanks: ['Thank you so much, {name}! We are delighted you enjoyed your stay.', 'Thanks for the kind words, {name}. Hope to welcome you back soon!'],
    sorry: ['Dear {name}, we are sorry to hear this and have passed your feedback to the team.', 'Thank you for your feedback, {name}. We have fixed the issue since your stay.'],
  },
  pt: { thanks: ['Muito obrigado, {name}! Volte sempre.'], sorry: ['Lamentamos, {name}. Vamos melhorar.'] },
  fr: { thanks: ['Merci beaucoup, {name} ! Au plaisir de vous revoir.'], sorry: ['Nous sommes désolés, {name}. Nous allons y remédier.'] },
  de: { thanks: ['Vielen Dank, {name}! Bis zum nächsten Mal.'], sorry: ['Das tut uns leid, {name}. Wir kümmern uns darum.'] },
  es: { thanks: ['¡Muchas gracias, {name}! Esperamos verte pronto.'], sorry: ['Lo sentimos, {name}. Tomamos nota para mejorar.'] },
};

export const REVIEWER_NAMES: Record<ReviewLang, readonly string[]> = {
  en: ['James', 'Emily', 'Michael', 'Sarah', 'David', 'Olivia', 'Daniel', 'Sophie', 'Chris', 'Hannah', 'Tom', 'Laura', 'Ben', 'Grace'],
  pt: ['João', 'Maria', 'Pedro', 'Ana', 'Tiago', 'Inês', 'Rui', 'Beatriz'],
  fr: ['Camille', 'Julien', 'Chloé', 'Antoine', 'Léa', 'Mathieu'],
  de: ['Lukas', 'Anna', 'Felix', 'Lena', 'Jonas', 'Katrin'],
  es: ['Lucía', 'Javier', 'Carmen', 'Diego', 'Sofía', 'Pablo'],
};

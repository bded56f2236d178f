/**
 * Domains that phishing most often imitates (payments, banks, large
 * platforms, mail, parcels, government). The look-alike check measures
 * distance to these; being one of them is never held against a subject.
 */
export const WELL_KNOWN_DOMAINS: readonly string[] = [
  'adobe.com', 'airbnb.com', 'alibaba.com', 'amazon.com', 'americanexpress.com', 'apple.com',
  'bankofamerica.com', 'barclays.co.uk', 'binance.com', 'booking.com', 'chase.com',
  'citibank.com', 'coinbase.com', 'dhl.com', 'docusign.com', 'dropbox.com', 'ebay.com',
  'facebook.com', 'fedex.com', 'github.com', 'gmail.com', 'google.com', 'hsbc.com',
  'icloud.com', 'instagram.com', 'linkedin.com', 'mastercard.com', 'microsoft.com',
  'netflix.com', 'office.com', 'outlook.com', 'paypal.com', 'roblox.com', 'santander.com',
  'spotify.com', 'steamcommunity.com', 'stripe.com', 'twitter.com', 'usps.com', 'visa.com',
  'walmart.com', 'wellsfargo.com', 'whatsapp.com', 'yahoo.com', 'youtube.com',
];

/** Link shorteners: a shortened link hides where it leads until it is followed. */
export const URL_SHORTENER_DOMAINS: ReadonlySet<string> = new Set([
  'adf.ly', 'bit.ly', 'bitly.com', 'bl.ink', 'buff.ly', 'cutt.ly', 'goo.gl', 'is.gd',
  'lnkd.in', 'ow.ly', 'qrco.de', 'rb.gy', 'rebrand.ly', 's.id', 'shorte.st', 'shorturl.at',
  'soo.gd', 't.co', 't.ly', 'tiny.cc', 'tinyurl.com', 'trib.al', 'v.gd',
]);

/**
 * Compact built-in lists for the email checks. They hold only well-known,
 * long-lived services: a short list that is right beats a long one that goes
 * stale, and an operator-configured provider can cover the long tail.
 */

/** Throw-away inbox services: anyone can read or create an address there without owning anything. */
export const DISPOSABLE_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  '10minutemail.com', '10minutemail.net', '1secmail.com', '1secmail.net', 'anonbox.net',
  'burnermail.io', 'discard.email', 'dispostable.com', 'dropmail.me', 'emailfake.com',
  'emailondeck.com', 'emltmp.com', 'fakeinbox.com', 'fakemail.net', 'getairmail.com',
  'getnada.com', 'grr.la', 'guerrillamail.biz', 'guerrillamail.com', 'guerrillamail.de',
  'guerrillamail.net', 'guerrillamail.org', 'guerrillamailblock.com', 'harakirimail.com',
  'inboxkitten.com', 'incognitomail.org', 'jetable.org', 'mail.tm', 'mailcatch.com',
  'maildrop.cc', 'mailexpire.com', 'mailforspam.com', 'mailinator.com', 'mailinator.net',
  'mailnesia.com', 'mailpoof.com', 'minuteinbox.com', 'mintemail.com', 'moakt.com',
  'mohmal.com', 'mytemp.email', 'nada.email', 'pokemail.net', 'sharklasers.com',
  'spam4.me', 'spambox.us', 'spamgourmet.com', 'temp-mail.io', 'temp-mail.org',
  'tempail.com', 'tempinbox.com', 'tempmail.com', 'tempmail.net', 'tempmailo.com',
  'tempr.email', 'throwawaymail.com', 'tmpmail.net', 'tmpmail.org', 'trashmail.com',
  'trashmail.de', 'trashmail.net', 'wegwerfmail.de', 'wegwerfmail.net', 'yopmail.com',
  'yopmail.fr', 'yopmail.net',
]);

/** Consumer mailbox providers: anyone can open an account, so the domain says nothing about an organisation. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  '126.com', '163.com', 'aol.com', 'att.net', 'bk.ru', 'btinternet.com', 'comcast.net',
  'daum.net', 'fastmail.com', 'free.fr', 'gmail.com', 'gmx.com', 'gmx.de', 'gmx.net',
  'googlemail.com', 'hanmail.net', 'hey.com', 'hotmail.co.uk', 'hotmail.com', 'hotmail.fr',
  'icloud.com', 'inbox.ru', 'interia.pl', 'laposte.net', 'libero.it', 'list.ru', 'live.com',
  'mac.com', 'mail.com', 'mail.ru', 'me.com', 'msn.com', 'naver.com', 'o2.pl', 'orange.fr',
  'outlook.com', 'pm.me', 'proton.me', 'protonmail.com', 'qq.com', 'rediffmail.com',
  'rocketmail.com', 'sbcglobal.net', 'seznam.cz', 'sina.com', 'sky.com', 't-online.de',
  'tuta.io', 'tutanota.com', 'verizon.net', 'wanadoo.fr', 'web.de', 'wp.pl', 'yahoo.co.uk',
  'yahoo.com', 'yahoo.fr', 'yandex.com', 'yandex.ru', 'ymail.com', 'zoho.com',
]);

/** Local parts that name a function or a shared mailbox rather than a person. */
export const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set([
  'abuse', 'accounts', 'admin', 'administrator', 'billing', 'careers', 'compliance',
  'contact', 'enquiries', 'feedback', 'finance', 'hello', 'help', 'hostmaster', 'hr',
  'info', 'inquiries', 'jobs', 'legal', 'mail', 'marketing', 'media', 'news', 'newsletter',
  'no-reply', 'noc', 'noreply', 'office', 'orders', 'postmaster', 'press', 'privacy',
  'root', 'sales', 'security', 'service', 'support', 'team', 'webmaster',
]);

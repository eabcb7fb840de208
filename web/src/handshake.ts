// What the page (main.ts) and the Activity's handshake bundle (activity.ts, loaded only
// inside Discord's frame) share: types only, so neither bundle carries the other.

/** The Activity socket's first frame (docs/activity.md; the server's bot/web/activity.py). */
export interface ActivityFrame {
  v: number;
  type: "activity";
  access_token: string;
  instance_id: string;
}

/** The page's config, `GET <base>api/activity`: the client id (the application id) and
 * the sentence shown when Discord's code is refused, in the page's language. */
export interface ActivityConfig {
  client_id: string;
  refused: string;
}

/** The handshake with Discord's client and the bot's server: resolves to what the
 * socket's first frame needs; rejects when Discord or the server refuses. `base` is the
 * prefix of every request (`/.proxy/` inside Discord's frame). */
export type Handshake = (clientId: string, base: string) =>
  Promise<{ accessToken: string; instanceId: string }>;

declare global {
  interface Window { tricktableHandshake?: Handshake }
}

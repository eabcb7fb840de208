// The Discord Activity's handshake, a bundle of its own (assets/activity.js) that the page
// loads only inside Discord's frame, so the plain web table does not carry the SDK:
// Discord's Embedded App SDK `ready()`, `commands.authorize` (scope identify), the code
// exchanged by the bot's server (`POST <base>api/token` → {access_token}), then
// `commands.authenticate`. docs/activity.md.

import { DiscordSDK } from "@discord/embedded-app-sdk";
import type { Handshake } from "./handshake";

const handshake: Handshake = async (clientId, base) => {
  // The SDK must not send every console line to Discord's client.
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const answer = await fetch(`${base}api/token`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = (await answer.json()) as { access_token?: unknown };
  if (!answer.ok || typeof body.access_token !== "string") throw new Error("refused");
  await sdk.commands.authenticate({ access_token: body.access_token });
  return { accessToken: body.access_token, instanceId: sdk.instanceId };
};

window.tricktableHandshake = handshake;

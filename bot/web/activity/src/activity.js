// The web table inside Discord (issue 31): the Embedded App SDK's handshake with the
// Discord client, then OAuth2: authorize (a code, in Discord's own consent dialog), the
// server exchanges the code for an access token (it holds the client secret), and
// authenticate (the client accepts the token). The page then says hello with the token;
// the server asks Discord who it belongs to. Nothing here decides anything of the game.
import { DiscordSDK } from "@discord/embedded-app-sdk";

async function login(clientId) {
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch(".proxy/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!answer.ok) throw new Error("token " + answer.status);
  const { access_token } = await answer.json();
  await sdk.commands.authenticate({ access_token });
  return {
    access_token,
    channel: sdk.channelId,
    guild: sdk.guildId,
    instance: sdk.instanceId,
  };
}

window.DominoActivity = { login };

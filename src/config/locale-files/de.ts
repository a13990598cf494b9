// The German texts' files by `./<namespace>.json`, but the server's (`bot`): `config/i18n.ts` loads this map with
// the language's first file.
export default import.meta.glob<{ default: Record<string, unknown> }>(["./*.json", "!./bot.json"], {
  base: "../../../locales/de",
});

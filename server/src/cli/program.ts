/**
 * The operator's command line (decision D6): `npm run kassa -- <command>`; `index.ts` runs it.
 * It reads the same environment as the server (DATA_DIR, DATABASE_URL, …) and works whether or
 * not the server runs; see server/README.md.
 */
import { Command, InvalidArgumentError } from "commander";
import { EnvError, loadEnv } from "../env";
import { isSettingKey, SETTING_KEYS, type SettingKey } from "../services/settings";
import { connectOperator, type Operator, OperatorError } from "./operator";

function parseSettingKey(value: string): SettingKey {
  if (!isSettingKey(value)) throw new InvalidArgumentError(`unknown setting; known: ${SETTING_KEYS.join(", ")}`);
  return value;
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidArgumentError("not JSON (quote strings: '\"text\"')");
  }
}

function parseIsoDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new InvalidArgumentError("not an ISO 8601 date-time, e.g. 2026-05-01T12:00:00Z");
  }
  return date.toISOString();
}

interface GlobalOptions {
  server?: string;
  token?: string;
}

export function createCli(): Command {
  const program = new Command("kassa")
    .description("Operator commands of the Kassa server")
    .option("--server <url>", "send the command to this running server (needs OPERATOR_TOKEN or --token)")
    .option("--token <token>", "the server's operator token")
    .showHelpAfterError();

  const withOperator = async (run: (operator: Operator) => Promise<void>) => {
    const global = program.opts<GlobalOptions>();
    const env = loadEnv(process.env, { forCli: true });
    const operator = await connectOperator(env, {
      serverUrl: global.server ?? process.env.KASSA_SERVER_URL,
      token: global.token,
    });
    try {
      await run(operator);
    } finally {
      await operator.close();
    }
  };

  const maintenance = program.command("maintenance").description("the maintenance notice users see");
  maintenance
    .command("on")
    .description("switch the maintenance notice on")
    .option("--until <iso>", "when the work is expected to end (ISO 8601)", parseIsoDate)
    .option("--message <text>", "note for users in every language (overridden per language below)")
    .option("--message-en <text>", "note in English")
    .option("--message-ru <text>", "note in Russian")
    .option("--message-de <text>", "note in German")
    .option("--message-kk <text>", "note in Kazakh")
    .action(
      async (options: {
        until?: string;
        message?: string;
        messageEn?: string;
        messageRu?: string;
        messageDe?: string;
        messageKk?: string;
      }) => {
        const given = {
          en: options.messageEn ?? options.message,
          ru: options.messageRu ?? options.message,
          de: options.messageDe ?? options.message,
          kk: options.messageKk ?? options.message,
        };
        // Languages without a text get the English (or first given) one: see completeLocalizedText.
        const message = Object.fromEntries(Object.entries(given).filter(([, text]) => text !== undefined));
        await withOperator(async (operator) => {
          const state = await operator.maintenance({
            enabled: true,
            until: options.until ?? null,
            message: Object.keys(message).length > 0 ? message : null,
          });
          console.log(`Maintenance is on${state.until ? ` until ${state.until}` : ""} (via ${operator.via}).`);
          console.log(JSON.stringify(state, null, 2));
        });
      },
    );
  maintenance
    .command("off")
    .description("switch the maintenance notice off")
    .action(async () => {
      await withOperator(async (operator) => {
        const state = await operator.maintenance({ enabled: false });
        console.log(`Maintenance is off (via ${operator.via}).`);
        console.log(JSON.stringify(state, null, 2));
      });
    });
  maintenance
    .command("status")
    .description("show the maintenance notice")
    .action(async () => {
      await withOperator(async (operator) => {
        console.log(JSON.stringify(await operator.getSetting("technicalWork"), null, 2));
      });
    });

  const settings = program.command("settings").description("server settings");
  settings
    .command("get")
    .description(`print a setting as JSON (keys: ${SETTING_KEYS.join(", ")})`)
    .argument("<key>", "setting key", parseSettingKey)
    .action(async (key: SettingKey) => {
      await withOperator(async (operator) => {
        console.log(JSON.stringify(await operator.getSetting(key), null, 2));
      });
    });
  settings
    .command("set")
    .description("store a setting; the value is JSON and is checked against the setting's schema")
    .argument("<key>", "setting key", parseSettingKey)
    .argument("<json>", 'the value as JSON, e.g. true, \'"text"\', \'["5","3","1"]\'', parseJson)
    .action(async (key: SettingKey, value: unknown) => {
      await withOperator(async (operator) => {
        const stored = await operator.setSetting(key, value);
        console.log(`${key} = ${JSON.stringify(stored)} (via ${operator.via}).`);
      });
    });
  settings
    .command("list")
    .description("print every setting")
    .action(async () => {
      await withOperator(async (operator) => {
        const all: Record<string, unknown> = {};
        for (const key of SETTING_KEYS) all[key] = await operator.getSetting(key);
        console.log(JSON.stringify(all, null, 2));
      });
    });

  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    await createCli().parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof EnvError || error instanceof OperatorError) {
      console.error(`kassa: ${error.message}`);
      return 1;
    }
    const body = (error as { toBody?: () => unknown }).toBody?.();
    if (body) {
      console.error(`kassa: ${JSON.stringify(body)}`);
      return 1;
    }
    throw error;
  }
}

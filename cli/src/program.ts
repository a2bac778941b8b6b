// The htmldrop command line: every command, its options and its help with an example.
import { Command } from "commander";
import packageJson from "../package.json";
import { login, logout, whoami } from "./auth";
import { comments } from "./comments";
import { diff, get, list, passcode, remove, stats, versions } from "./drops";
import { listPatterns, showPattern } from "./patterns";
import { publish, update } from "./publish";
import { createToken, listTokens, revokeToken } from "./tokens";
import { watch } from "./watch";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

function examples(command: Command, lines: string[]): Command {
  return command.addHelpText("after", `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`);
}

/** Commander's own refusals (unknown options, missing arguments) are thrown, for main.ts to exit with the usage code. */
export function buildProgram(): Command {
  const program = new Command("htmldrop")
    .description("Publish self-contained HTML to an htmldrop server: stable URLs, versions, tags, passcodes.")
    .version(packageJson.version, "-V, --version")
    .exitOverride()
    .showHelpAfterError("(htmldrop help <command> shows its options and an example)")
    .addHelpText(
      "after",
      "\nThe server and token come from `htmldrop login`, or from HTMLDROP_URL and HTMLDROP_TOKEN, which win.\n" +
        "Exit codes: 0 done, 1 refused by the server, 2 usage, 3 not logged in or not allowed, 4 not found, 5 server or network failure.\n",
    );

  examples(
    program
      .command("login")
      .description("Sign in through your browser (device code) and store the token for this user, mode 0600")
      .option("--url <url>", "the server, like https://drops.example.com (default: HTMLDROP_URL or the last login)")
      .option("--label <label>", "names this machine in the token list")
      .option("--scope <scope>", "ask only for this scope (repeatable): drops:read, drops:write, tokens:manage", collect)
      .option("--no-browser", "print the URL without opening a browser")
      .action(login),
    ["htmldrop login --url https://drops.example.com"],
  );

  examples(program.command("logout").description("Revoke the stored token on the server and forget it").action(logout), ["htmldrop logout"]);

  examples(
    program.command("whoami").description("Show the account and token in use").option("--json", "print the JSON of GET /api/me").action(whoami),
    ["htmldrop whoami"],
  );

  examples(
    program
      .command("publish")
      .description("Publish an HTML file (or - for stdin) and print its URL")
      .argument("<file>", "the HTML file, or - to read stdin")
      .option("--title <title>", "the title (default: the document's <title>, else the file name)")
      .option("--description <text>", "a description")
      .option("--tag <key=value>", "a tag (repeatable)", collect)
      .option("--context <file>", "a file with the reasoning behind this version")
      .option("--passcode <passcode>", "ask viewers for this passcode")
      .option("--expires <when>", "stop serving it after 45m, 12h, 7d, 2w or a date like 2027-01-31")
      .option("--upsert <key=value>", "publish a new version of your newest drop carrying this tag (repeatable: all must match), else create it with the tag", collect)
      .option("--idempotency-key <key>", "repeat a publish safely: the same key within 24 hours answers the first drop (default: a new key, kept across retries)")
      .option("--json", "print the Drop JSON instead of the URL")
      .option("--open", "open the drop in your browser")
      .action(publish),
    [
      "htmldrop publish report.html",
      "htmldrop publish report.html --title 'Weekly report' --tag team=web --expires 7d",
      "htmldrop publish explainer.html --upsert pr=42 --upsert repo=acme/web",
      "generate-report | htmldrop publish - --title 'Nightly report'",
    ],
  );

  examples(
    program
      .command("update")
      .description("Publish a new version of a drop from a file")
      .argument("<slug>", "the drop")
      .argument("<file>", "the HTML file, or - to read stdin")
      .option("--title <title>", "a new title")
      .option("--description <text>", "a new description")
      .option("--tag <key=value>", "replace the tags with these (repeatable)", collect)
      .option("--context <file>", "a file with the reasoning behind this version")
      .option("--expires <when>", "45m, 12h, 7d, 2w, a date, or never to remove the expiry")
      .option("--resolve <id>", "a comment this version addresses (repeatable)", collect)
      .option("--json", "print the Drop JSON instead of the URL")
      .option("--open", "open the drop in your browser")
      .action(update),
    ["htmldrop update k3x9p2m4q8rt report.html --resolve 0123456789abcdefghij"],
  );

  examples(
    program
      .command("ls")
      .description("List your drops, newest first")
      .option("--tag <key=value>", "only drops carrying this tag (repeatable: all must match)", collect)
      .option("--json", "print the drops as JSON")
      .action(list),
    ["htmldrop ls --tag team=web"],
  );

  examples(
    program.command("get").description("Show a drop").argument("<slug>", "the drop").option("--json", "print the Drop JSON").action(get),
    ["htmldrop get k3x9p2m4q8rt"],
  );

  examples(
    program.command("versions").description("List a drop's versions").argument("<slug>", "the drop").option("--json", "print the versions as JSON").action(versions),
    ["htmldrop versions k3x9p2m4q8rt"],
  );

  examples(
    program
      .command("diff")
      .description("Show what changed between two versions, as a unified diff of their HTML")
      .argument("<slug>", "the drop")
      .argument("[from]", "the older version (default: the one before TO)")
      .argument("[to]", "the newer version (default: the latest)")
      .action(diff),
    ["htmldrop diff k3x9p2m4q8rt", "htmldrop diff k3x9p2m4q8rt 1 3"],
  );

  examples(
    program.command("rm").description("Delete a drop and all its versions").argument("<slug>", "the drop").option("-y, --yes", "do not ask first").action(remove),
    ["htmldrop rm k3x9p2m4q8rt", "htmldrop rm k3x9p2m4q8rt --yes"],
  );

  examples(
    program
      .command("passcode")
      .description("Set or change a drop's passcode (asked for when not given), or remove it")
      .argument("<slug>", "the drop")
      .argument("[passcode]", "the new passcode, at least 4 characters")
      .option("--clear", "remove the passcode")
      .action(passcode),
    ["htmldrop passcode k3x9p2m4q8rt", "htmldrop passcode k3x9p2m4q8rt --clear"],
  );

  examples(
    program
      .command("comments")
      .description("Read a drop's comments, or resolve them")
      .argument("<slug>", "the drop")
      .option("--unresolved", "only the comments that wait for an answer")
      .option("--resolve <id>", "resolve this comment (repeatable)", collect)
      .option("--reopen <id>", "open this comment again (repeatable)", collect)
      .option("--json", "print the comments as JSON")
      .action(comments),
    ["htmldrop comments k3x9p2m4q8rt --unresolved", "htmldrop comments k3x9p2m4q8rt --resolve 0123456789abcdefghij"],
  );

  examples(
    program
      .command("stats")
      .description("Show a drop's views per day and per version")
      .argument("<slug>", "the drop")
      .option("--days <n>", "how many days back, 1 to 365 (default 30)")
      .option("--json", "print the stats as JSON")
      .action(stats),
    ["htmldrop stats k3x9p2m4q8rt --days 7"],
  );

  const tokens = examples(program.command("tokens").description("List, create and revoke API tokens"), [
    "htmldrop tokens",
    "htmldrop tokens create --label ci --scope drops:read --scope drops:write --expires 90d",
    "htmldrop tokens revoke 0123456789ab",
  ]);
  examples(tokens.command("ls", { isDefault: true }).description("List your tokens, revoked ones included").option("--json", "print the tokens as JSON").action(listTokens), [
    "htmldrop tokens ls",
  ]);
  examples(
    tokens
      .command("create")
      .description("Create a token and print it: the only time it is shown")
      .option("--label <label>", "names the token in the list")
      .option("--scope <scope>", "drops:read, drops:write or tokens:manage (repeatable; default: this token's)", collect)
      .option("--drop <slug>", "limit the token to this drop (repeatable)", collect)
      .option("--expires <when>", "12h, 30d, 2w or a date like 2027-01-31 (default: this token's expiry)")
      .option("--json", "print the created token's JSON")
      .action(createToken),
    ["TOKEN=$(htmldrop tokens create --label ci --scope drops:write --expires 30d)"],
  );
  examples(tokens.command("revoke").description("Revoke a token; it stops working at once").argument("<id>", "the token's 12-character id").action(revokeToken), [
    "htmldrop tokens revoke 0123456789ab",
  ]);

  const patterns = examples(program.command("patterns").description("Page patterns: what a good report, explainer or plan looks like"), [
    "htmldrop patterns",
    "htmldrop patterns show pr-explainer --template explainer.html",
  ]);
  examples(patterns.command("ls", { isDefault: true }).description("List your patterns and the built-in ones").option("--json", "print them as JSON").action(listPatterns), [
    "htmldrop patterns ls",
  ]);
  examples(
    patterns
      .command("show")
      .description("Print a pattern's guide, or write its template to a file to start from")
      .argument("<name>", "the pattern")
      .option("--template <file>", "write the pattern's HTML template to this file")
      .option("--force", "overwrite the --template file if it exists")
      .option("--json", "print the pattern's JSON")
      .action(showPattern),
    ["htmldrop patterns show status-report", "htmldrop patterns show status-report --template report.html"],
  );

  examples(
    program
      .command("watch")
      .description("Publish a new version each time the file is saved; prints the URL, then a line per version")
      .argument("<file>", "the HTML file")
      .option("--slug <slug>", "publish to this drop (its first version comes with the first save); default: a new drop from the file now")
      .option("--title <title>", "the new drop's title (default: the document's <title>, else the file name)")
      .option("--tag <key=value>", "a tag of the new drop (repeatable)", collect)
      .option("--debounce <ms>", "wait this long after a save before publishing", "300")
      .action(watch),
    ["htmldrop watch report.html", "htmldrop watch report.html --slug k3x9p2m4q8rt"],
  );

  return program;
}

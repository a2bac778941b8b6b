import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import type { Caller } from "@/lib/accounts/credentials";
import { findPattern, listPatterns, parsePatternFileName, PATTERN_INDEX_URI, PATTERN_RESOURCE_ROOT } from "@/lib/patterns";
import { templateFileName, type Pattern } from "@/lib/schemas/patterns";
import { InvalidParamsError } from "./invalid-params";

// The pattern catalog over MCP: each pattern as a prompt (clients that surface prompts offer them as
// slash commands) and the catalog as resources, with the same content as GET /api/patterns[/{name}].

const TOPIC_MAX_CHARS = 2_000;

/** MCP's code for a resource that does not exist (specification, server/resources, "Error Handling"). */
class ResourceNotFoundError extends Error {
  readonly code = -32002;
}

/** Reading the account's own patterns takes drops:read, as on REST; without it a client still gets the built-in ones. */
function patternOwner(caller: Caller): string | null {
  return caller.scopes.includes("drops:read") ? caller.userId : null;
}

/** The pattern this caller sees by that name, or `missing` thrown (the protocol's error, not the REST one). */
async function patternOr(caller: Caller, name: string, missing: () => Error): Promise<Pattern> {
  const pattern = await findPattern(patternOwner(caller), name);
  if (!pattern) throw missing();
  return pattern;
}

/** A Markdown code block whose fence is longer than any run of backticks in the text, so the text cannot end it. */
function codeBlock(language: string, text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function promptText(pattern: Pattern, topic: string | undefined): string {
  const ask = topic ? `Write a page about: ${topic}` : "Write a page of this kind (ask me what it should be about if you do not know yet).";
  const parts = [
    ask,
    `Follow the htmldrop pattern "${pattern.name}" below: go through its content checklist, keep the page self-contained (inline CSS and SVG, ` +
      "no external fonts, scripts or images), then publish it with the create_drop tool and give me its url.",
    pattern.markdown,
  ];
  if (pattern.template !== null) parts.push(`Start from this template and replace its example content:\n\n${codeBlock("html", pattern.template)}`);
  return parts.join("\n\n");
}

function patternResources(patterns: { name: string; title: string | null; description: string; has_template: boolean }[]): Resource[] {
  const index: Resource = {
    uri: PATTERN_INDEX_URI,
    name: "patterns",
    title: "Page patterns",
    description: "Every pattern you may follow, by name, with its triggers (the same as GET /api/patterns).",
    mimeType: "application/json",
  };
  return [
    index,
    ...patterns.flatMap((pattern) => [
      { uri: `${PATTERN_RESOURCE_ROOT}${pattern.name}.md`, name: pattern.name, ...(pattern.title ? { title: pattern.title } : {}), description: pattern.description, mimeType: "text/markdown" },
      ...(pattern.has_template
        ? [{ uri: `${PATTERN_RESOURCE_ROOT}${templateFileName(pattern.name)}`, name: `${pattern.name} template`, description: `The starting document of ${pattern.name}.`, mimeType: "text/html" }]
        : []),
    ]),
  ];
}

export async function readPatternResource(caller: Caller, uri: string): Promise<ReadResourceResult> {
  if (uri === PATTERN_INDEX_URI) {
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ patterns: await listPatterns(patternOwner(caller)) }) }] };
  }
  const named = uri.startsWith(PATTERN_RESOURCE_ROOT) ? parsePatternFileName(uri.slice(PATTERN_RESOURCE_ROOT.length)) : null;
  const notFound = () => new ResourceNotFoundError(`Resource not found: ${uri.slice(0, 200)}. resources/list names the pattern resources.`);
  if (!named) throw notFound();
  const pattern = await patternOr(caller, named.name, notFound);
  if (named.file === "guide") return { contents: [{ uri, mimeType: "text/markdown", text: pattern.markdown }] };
  if (pattern.template === null) throw notFound();
  return { contents: [{ uri, mimeType: "text/html", text: pattern.template }] };
}

/** Registers prompts/* and the listing of resources on a server bound to `caller`; server.ts reads them (readPatternResource). */
export function servePatterns(server: Server, caller: Caller): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await listPatterns(patternOwner(caller))).map(
      (pattern): Prompt => ({
        name: pattern.name,
        ...(pattern.title ? { title: pattern.title } : {}),
        description: pattern.description,
        arguments: [{ name: "topic", description: "What the page is about: the pull request, the period, the decision…", required: false }],
      }),
    ),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const topic = request.params.arguments?.topic?.trim();
    if (topic && topic.length > TOPIC_MAX_CHARS) throw new InvalidParamsError(`topic is at most ${TOPIC_MAX_CHARS} characters.`);
    const name = request.params.name;
    const pattern = await patternOr(caller, name, () => new InvalidParamsError(`Unknown prompt: no pattern named ${name.slice(0, 100)}. prompts/list names them.`));
    return { description: pattern.description, messages: [{ role: "user", content: { type: "text", text: promptText(pattern, topic || undefined) } }] };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: patternResources(await listPatterns(patternOwner(caller))) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: `${PATTERN_RESOURCE_ROOT}{name}.md`, name: "pattern", title: "A pattern's guide", mimeType: "text/markdown" },
      { uriTemplate: `${PATTERN_RESOURCE_ROOT}{name}.template.html`, name: "pattern-template", title: "A pattern's starting document", mimeType: "text/html" },
    ],
  }));
}

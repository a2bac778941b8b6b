import { connectGuides, publicUrlNote, type ConnectGuide } from "./connect";
import { discoveryFacts, errorGuide } from "./facts";
import { buildOpenApiDocument, errorCodesDescription } from "./openapi";

// What /docs shows, read from the OpenAPI document /openapi.json serves, so the two cannot disagree.
// Operations name the schemas they take and return, and each named schema is written out once, as a
// declaration in the style of a TypeScript type: printed under every operation, the schemas made the page
// several hundred kilobytes. /openapi.json stays the complete form, examples included.

// Any member of an OpenAPI document, walked by key; what it holds is checked where it is read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Text with the names of component schemas kept apart, so the page can link them to their declarations. */
export type TypeText = (string | { schema: string })[];

export type ReferenceParameter = { name: string; in: string; required: boolean; type: TypeText; description: string };
export type ReferenceResponse = { status: string; description: string; type?: TypeText };
export type ReferenceOperation = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  needsToken: boolean;
  parameters: ReferenceParameter[];
  body?: { required: boolean; type: TypeText; example?: unknown };
  responses: ReferenceResponse[];
  /** Inline Markdown: each error status with the codes to switch on, and a description where it says more than the codes. */
  errors: string;
};
export type ReferenceSchema = { name: string; description?: string; declaration: TypeText };
export type ReferenceSecurityScheme = {
  name: string;
  kind: string;
  description: string;
  flow?: { authorizationUrl: string; tokenUrl: string; scopes: { name: string; description: string }[] };
};
export type ApiReference = {
  title: string;
  version: string;
  openapi: string;
  summary: string;
  mcpUrl: string;
  publicUrlNote: string;
  guides: ConnectGuide[];
  securitySchemes: ReferenceSecurityScheme[];
  tags: { name: string; description: string; operations: ReferenceOperation[] }[];
  schemas: ReferenceSchema[];
  errors: { code: string; status: number; meaning: string }[];
};

// Every integer zod exports carries the safe-integer bounds; they say nothing to a reader.
const LIMIT_KEYWORDS = ["format", "default", "minLength", "maxLength", "minimum", "maximum", "pattern", "minItems", "maxItems", "maxProperties"];

// A property comment at least this long, written out under the same key in an earlier schema (the three
// drop bodies share most fields), points there instead: each copy cost the page twice its length.
const REPEATED_COMMENT_MIN = 60;

const schemaName = (ref: string) => ref.split("/").at(-1)!;
/** The members of `X | null` other than null: where zod puts a nullable value's limits and description. */
const nonNull = (schema: Json): Json[] => (schema.anyOf as Json[] | undefined)?.filter((member) => member.type !== "null") ?? [schema];

/** Adjacent strings joined: on the page each string would be a text node of its own, with a marker between. */
function joined(text: TypeText): TypeText {
  const out: TypeText = [];
  for (const part of text) {
    const last = out.length - 1;
    if (typeof part === "string" && typeof out[last] === "string") out[last] += part;
    else out.push(part);
  }
  return out;
}

/** A value's own description, else its non-null member's. */
function describe(schema: Json): string | undefined {
  return schema.description ?? nonNull(schema).find((member) => member.description)?.description;
}

class SchemaWriter {
  /** Component schemas by their JSON, so a copy inlined elsewhere (a list's items) is named, not written out again. */
  private readonly named: Map<string, string>;

  /** The schema that first wrote out each long property comment, by property key and comment. */
  private readonly commentSource = new Map<string, string>();
  /** The component schema being declared; comments are shared only between declarations. */
  private declaring: string | undefined;

  constructor(components: Record<string, Json>) {
    this.named = new Map(Object.entries(components).map(([name, schema]) => [JSON.stringify(schema), name]));
  }

  private name(schema: Json): string | undefined {
    return schema.$ref ? schemaName(schema.$ref) : this.named.get(JSON.stringify(schema));
  }

  declaration(name: string, schema: Json): TypeText {
    this.declaring = name;
    try {
      return joined(schema.properties ? this.block(schema, "") : this.type(schema, ""));
    } finally {
      this.declaring = undefined;
    }
  }

  /** The type of a value; objects are written out as `{ … }` blocks indented under `indent`. */
  type(schema: Json, indent = ""): TypeText {
    const name = this.name(schema);
    if (name) return [{ schema: name }];
    if (schema.const !== undefined) return [JSON.stringify(schema.const)];
    if (schema.enum) return [(schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(" | ")];
    if (schema.anyOf) return (schema.anyOf as Json[]).flatMap((member, index) => [...(index ? [" | "] : []), ...this.type(member, indent)]);
    if (Array.isArray(schema.type)) return [schema.type.join(" | ")];
    if (schema.type === "array") {
      const items = this.type(schema.items ?? {}, indent);
      return items.length === 1 && typeof items[0] === "string" && items[0].includes(" | ") ? [`(${items[0]})[]`] : [...items, "[]"];
    }
    if (schema.properties) return this.block(schema, indent);
    if (schema.type === "object" && Object.keys(schema.additionalProperties ?? {}).length > 0) {
      return ["{ [key: string]: ", ...this.type(schema.additionalProperties, indent), " }"];
    }
    return [schema.type ?? "any"];
  }

  /** One line per property, under a `//` line with its description and limits. */
  private block(schema: Json, indent: string): TypeText {
    const inner = `${indent}  `;
    const required = new Set<string>(schema.required ?? []);
    const lines = Object.entries(schema.properties as Record<string, Json>).flatMap(([key, property]) => {
      const comment = [describe(property), this.limits(property)].filter(Boolean).join(" ");
      return [...this.commentLine(inner, key, comment), `${inner}${key}${required.has(key) ? "" : "?"}: `, ...this.type(property, inner), "\n"];
    });
    return ["{\n", ...lines, `${indent}}`];
  }

  /** A property's `//` line: the comment, or a link to the schema that already wrote out the same long one. */
  private commentLine(indent: string, key: string, comment: string): TypeText {
    if (!comment) return [];
    if (this.declaring !== undefined && comment.length >= REPEATED_COMMENT_MIN) {
      const id = `${key}\n${comment}`;
      const source = this.commentSource.get(id);
      if (source !== undefined && source !== this.declaring) return [`${indent}// as in `, { schema: source }, "\n"];
      this.commentSource.set(id, this.declaring);
    }
    return [`${indent}// ${comment}\n`];
  }

  /** Limits and formats of a value, of its non-null member, of its items, and of a map's keys and values; "" when none. */
  limits(schema: Json): string {
    const notes: string[] = [];
    const collect = (part: Json | undefined, prefix: string) => {
      for (const keyword of LIMIT_KEYWORDS) {
        const value = part?.[keyword];
        if (value === undefined || (typeof value === "number" && Math.abs(value) === Number.MAX_SAFE_INTEGER)) continue;
        notes.push(`${prefix}${keyword} ${typeof value === "string" && keyword !== "pattern" && keyword !== "format" ? JSON.stringify(value) : value}`);
      }
    };
    for (const member of nonNull(schema)) {
      collect(member, "");
      if (member.items && !this.name(member.items)) collect(member.items, "items: ");
      collect(member.propertyNames, "keys: ");
      if (typeof member.additionalProperties === "object") collect(member.additionalProperties, "values: ");
    }
    return notes.length > 0 ? `(${notes.join(", ")})` : "";
  }
}

// Optional parts are left out rather than set to undefined: React writes every undefined into the page's data.
function operationOf(writer: SchemaWriter, path: string, method: string, operation: Json): ReferenceOperation {
  const body = operation.requestBody?.content?.["application/json"] as Json | undefined;
  const responses: ReferenceResponse[] = [];
  const errors: string[] = [];
  for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
    const json = response.content?.["application/json"] as Json | undefined;
    if (json?.examples) {
      const codes = Object.keys(json.examples);
      errors.push(`${status} ${codes.join(", ")}${response.description === errorCodesDescription(codes) ? "" : ` (${response.description})`}`);
    } else {
      responses.push({ status, description: response.description, ...(json ? { type: joined(writer.type(json.schema)) } : {}) });
    }
  }
  return {
    id: operation.operationId,
    method,
    path,
    summary: operation.summary,
    description: operation.description,
    needsToken: operation.security.length > 0,
    parameters: ((operation.parameters ?? []) as Json[]).map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      type: joined(writer.type(parameter.schema)),
      description: [parameter.description, writer.limits(parameter.schema)].filter(Boolean).join(" "),
    })),
    ...(body
      ? {
          body: {
            required: operation.requestBody.required,
            type: joined(writer.type(body.schema)),
            ...(body.example === undefined ? {} : { example: body.example }),
          },
        }
      : {}),
    responses,
    errors: errors.join(" · "),
  };
}

/** The security schemes: what a token is and, for OAuth, the flow's endpoints and scopes. */
function securitySchemeOf(name: string, scheme: Json): ReferenceSecurityScheme {
  const flow = scheme.flows?.authorizationCode as Json | undefined;
  return {
    name,
    kind: scheme.type === "oauth2" ? "OAuth 2.1, authorization code" : `${scheme.scheme} token`,
    description: scheme.description,
    ...(flow
      ? {
          flow: {
            authorizationUrl: flow.authorizationUrl,
            tokenUrl: flow.tokenUrl,
            scopes: Object.entries(flow.scopes as Record<string, string>).map(([scope, description]) => ({ name: scope, description })),
          },
        }
      : {}),
  };
}

/** Everything /docs shows: every operation in document order, every component schema once, and how to connect and authenticate. */
export function buildApiReference(): ApiReference {
  const document = buildOpenApiDocument() as Json;
  const facts = discoveryFacts();
  const components = document.components.schemas as Record<string, Json>;
  const writer = new SchemaWriter(components);
  return {
    title: document.info.title,
    version: document.info.version,
    openapi: document.openapi,
    summary: document.info.summary,
    mcpUrl: facts.mcpUrl,
    publicUrlNote: publicUrlNote(facts),
    guides: connectGuides(facts),
    securitySchemes: Object.entries(document.components.securitySchemes as Record<string, Json>).map(([name, scheme]) => securitySchemeOf(name, scheme)),
    tags: (document.tags as { name: string; description: string }[]).map((tag) => ({
      ...tag,
      operations: Object.entries(document.paths as Record<string, Json>).flatMap(([path, methods]) =>
        Object.entries(methods as Record<string, Json>)
          .filter(([, operation]) => operation.tags.includes(tag.name))
          .map(([method, operation]) => operationOf(writer, path, method, operation)),
      ),
    })),
    schemas: Object.entries(components).map(([name, schema]) => ({
      name,
      // zod's id of a schema shows up as its description ("Drop"): it repeats the name.
      ...(schema.description && schema.description !== name ? { description: schema.description } : {}),
      declaration: writer.declaration(name, schema),
    })),
    errors: errorGuide(),
  };
}

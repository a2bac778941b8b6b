// oidc-provider ships no type declarations; this is the part of its API the browser tests use.
declare module "oidc-provider" {
  import type { Server } from "node:http";

  type ClientMetadata = {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
  };
  type Account = { accountId: string; claims: () => Promise<Record<string, unknown>> };
  type Configuration = {
    clients?: ClientMetadata[];
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    cookies?: { keys?: string[] };
  };

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    listen(port: number): Server;
  }
}

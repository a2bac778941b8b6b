// The slice of autocannon's API the benchmark uses (the package ships no type declarations).
declare module "autocannon" {
  type Options = { url: string; connections?: number; duration?: number; pipelining?: number; headers?: Record<string, string>;
    /** Each connection sends these in turn, over and over. */
    requests?: { method?: string; path: string; headers?: Record<string, string> }[];
  };
  type Result = { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
  export default function autocannon(options: Options): Promise<Result>;
}

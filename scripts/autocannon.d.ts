// The slice of autocannon's API the benchmarks use (the package ships no type declarations).
declare module "autocannon" {
  export type Request = { method?: string; path: string; headers?: Record<string, string>; body?: string };
  type Options = { url: string; connections?: number; duration?: number; pipelining?: number; timeout?: number; method?: string; headers?: Record<string, string>; body?: string;
    /** Each connection sends these in turn, over and over; setupRequest, when given, rebuilds one before every send. */
    requests?: (Partial<Request> & { setupRequest?: (request: Request) => Request })[];
  };
  type Result = { requests: { average: number; total: number }; throughput: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  };
  export default function autocannon(options: Options): Promise<Result>;
}

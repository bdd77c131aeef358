// The part of autocannon's API the bench uses (the package ships no type declarations).

declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (req: RequestSpec) => RequestSpec;
  }
  interface Options extends RequestSpec {
    /** Several URLs: the connections are spread over them in turn. */
    url: string | string[];
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    overallRate?: number;
    requests?: RequestSpec[];
  }
  interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    '2xx': number;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}

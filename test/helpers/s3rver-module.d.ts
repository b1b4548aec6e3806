// The part of s3rver's API the deploy suites use (the package ships no types).
declare module "s3rver" {
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    on(event: "event", listener: (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => void): this;
  }
}

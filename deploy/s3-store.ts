// An S3-compatible store (AWS S3, Cloudflare R2's S3 API, GCS's interoperability API, MinIO,
// university stores) through the AWS SDK. Credentials come from the SDK's usual chain (the
// AWS_* environment variables, ~/.aws files, SSO, web identity as GitHub Actions' OIDC sets
// it), never from the command line.

import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { type ObjectStore, prefixer, type RemoteObject } from "./store.js";

export interface Target {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
}

/**
 * `s3://bucket/prefix`, or `r2://bucket/prefix` (R2's S3 API: the endpoint from `--endpoint`
 * or from CLOUDFLARE_ACCOUNT_ID, region "auto").
 */
export function parseTarget(to: string, o: { endpoint?: string; region?: string; env?: Record<string, string | undefined> } = {}): Target {
  const m = /^(s3|r2):\/\/([^/]+)\/?(.*)$/.exec(to);
  if (!m) throw new Error(`--to "${to}" is not s3://bucket[/prefix] or r2://bucket[/prefix]`);
  const [, scheme, bucket, prefix] = m;
  if (scheme === "s3") return { bucket, prefix, endpoint: o.endpoint, region: o.region };
  const account = (o.env ?? process.env).CLOUDFLARE_ACCOUNT_ID;
  const endpoint = o.endpoint ?? (account ? `https://${account}.r2.cloudflarestorage.com` : undefined);
  if (!endpoint) throw new Error(`--to ${to}: R2 needs --endpoint https://<account>.r2.cloudflarestorage.com or CLOUDFLARE_ACCOUNT_ID`);
  return { bucket, prefix, endpoint, region: o.region ?? "auto" };
}

/** Not found, as S3 says it in its several ways. */
function notFound(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === "NoSuchKey" || err?.name === "NotFound" || err?.$metadata?.httpStatusCode === 404;
}

export interface S3StoreOptions {
  /** Settings of the SDK's client (credentials given in code, as the tests do). */
  client?: Partial<S3ClientConfig>;
  /** Objects per listing page (S3's most and default: 1,000). */
  listPage?: number;
}

export function s3Store(target: Target, o: S3StoreOptions = {}): ObjectStore {
  const client = new S3Client({
    region: target.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
    ...(target.endpoint ? { endpoint: target.endpoint, forcePathStyle: true } : {}),
    // Retries are the deploy's (retry.ts), one policy for every store.
    maxAttempts: 1,
    // Checksums only where S3 requires them: stores other than AWS's do not all read the SDK's
    // newer checksum headers. Each upload carries its Content-MD5 instead.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...o.client,
  });
  const keys = prefixer(target.prefix);
  const Bucket = target.bucket;
  return {
    name: `s3://${Bucket}/${keys.listPrefix}`,
    async list() {
      const out: RemoteObject[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: keys.listPrefix || undefined, ContinuationToken, MaxKeys: o.listPage }),
        );
        for (const o of page.Contents ?? []) {
          if (o.Key) out.push({ key: keys.relative(o.Key), size: o.Size ?? 0, etag: o.ETag?.replace(/"/g, "") });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out;
    },
    async get(key, range) {
      try {
        const Range = range ? `bytes=${range.offset}-${range.offset + range.length - 1}` : undefined;
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keys.full(key), Range }));
        return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array(0);
      } catch (e) {
        if (notFound(e)) return null;
        throw e;
      }
    },
    async put(key, body, headers) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: keys.full(key),
          Body: body,
          ContentType: headers.contentType,
          CacheControl: headers.cacheControl,
          ContentMD5: Buffer.from(headers.md5, "hex").toString("base64"),
        }),
      );
    },
    async delete(list) {
      if (!list.length) return;
      const answer = await client.send(
        new DeleteObjectsCommand({ Bucket, Delete: { Objects: list.map((k) => ({ Key: keys.full(k) })), Quiet: true } }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length)
        throw new Error(`deleting ${failed.length} objects from s3://${Bucket}: ${failed[0].Key}: ${failed[0].Message ?? failed[0].Code}`);
    },
  };
}

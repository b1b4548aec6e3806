// s3rver in its own process, for test/helpers/s3rver.ts: it signs ListObjectsV2 continuation
// tokens with DES, which Node's OpenSSL 3 has only with --openssl-legacy-provider, a flag the
// test workers should not carry. Tells the parent its port, then each object event, over IPC.

import S3rver from "s3rver";

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
server.on("event", (e) => {
  for (const r of e.Records) process.send?.({ event: r.eventName, key: r.s3.object.key });
});
const { port } = await server.run();
process.send?.({ port });
process.on("disconnect", () => server.close().then(() => process.exit(0)));

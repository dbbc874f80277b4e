import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { createReadStream } from "node:fs";
import { env } from "../env";
import { blobHeaders } from "./headers";
import type { BlobBackend } from "./store";

/**
 * An S3-compatible bucket (S3_BUCKET, S3_ENDPOINT, …) through the AWS SDK. Links are presigned GETs
 * that name the type and disposition the object is served with (attachment unless it is a raster
 * image, audio or video: see headers.ts).
 */
export function s3Backend(): BlobBackend {
  const config = env();
  const bucket = config.S3_BUCKET!;
  const client = new S3Client({
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    // Checksums only where S3 requires them: S3-compatible servers differ in the newer trailers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return {
    async put(key, content) {
      // A file an upload was streamed to is streamed on to the bucket, its length known beforehand.
      const body = Buffer.isBuffer(content) ? { Body: content } : { Body: createReadStream(content.file), ContentLength: content.size };
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, ...body }));
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async url(key, mimeType, ttlSeconds) {
      const headers = blobHeaders(mimeType);
      const get = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentType: headers["content-type"],
        ResponseContentDisposition: headers["content-disposition"],
      });
      return getSignedUrl(client, get, { expiresIn: ttlSeconds });
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },
  };
}

import { crc32, deflateSync } from "node:zlib";
import { createHash } from "node:crypto";

// Tiny deterministic PNGs for the fixture image host. Each carries a marker in
// a tEXt chunk ("Comment" = "cardos-emulator:<path>") that identify reads back;
// the pixels are a seeded colour gradient so the files look distinct.

export const MARKER = "cardos-emulator:";
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export interface PngSpec {
  width: number;
  height: number;
  /** Written after the marker prefix; identify reads it back. */
  path: string;
  /** Bytes of an extra private ancillary chunk (to build oversized test images). */
  padding?: number;
}

export function renderPng({ width, height, path, padding }: PngSpec): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const seed = createHash("sha256").update(path).digest();
  // Each row uses the PNG "Sub" filter: a horizontal gradient is then a run of
  // identical deltas, which deflate packs fast (the full catalog renders in a
  // second or two; unfiltered rows made deflate the bottleneck). Same pixels.
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    raw[row] = 1; // filter: Sub (each byte minus the byte one pixel to the left)
    raw[row + 1] = seed[0]! & 0xff;
    raw[row + 2] = (seed[1]! + y * 2) & 0xff;
    raw[row + 3] = (seed[2]! + y) & 0xff;
    for (let x = 1; x < width; x++) {
      const o = row + 1 + x * 3;
      raw[o] = 3; // red grows by 3 a pixel
      raw[o + 1] = 0; // green is constant along a row
      raw[o + 2] = 1; // blue grows by 1 a pixel
    }
  }
  const parts = [
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("tEXt", Buffer.from(`Comment\0${MARKER}${path}`, "latin1")),
    chunk("IDAT", deflateSync(raw)),
  ];
  if (padding) parts.push(chunk("emUp", Buffer.alloc(padding)));
  parts.push(chunk("IEND", Buffer.alloc(0)));
  return Buffer.concat(parts);
}

export type ImageFormat = "png" | "jpeg" | "webp";

/** Format by magic bytes (the Content-Type and file name are not trusted). */
export function sniff(bytes: Uint8Array): ImageFormat | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(SIGNATURE)) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 12 && b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP") return "webp";
  return null;
}

export interface Decoded {
  format: ImageFormat;
  width: number | null;
  height: number | null;
}

export interface PngChunk {
  type: string;
  data: Buffer;
  /** Whether the stored CRC matches the chunk's type and data. */
  crcOk: boolean;
}

/**
 * A PNG's chunks in order, read by their declared lengths (4-byte length,
 * 4-byte type, data, 4-byte CRC), through IEND. Null when the structure is
 * broken: a length that runs past the end, no IEND, or bytes after it.
 */
export function pngChunks(bytes: Uint8Array): PngChunk[] | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 8 || !b.subarray(0, 8).equals(SIGNATURE)) return null;
  const chunks: PngChunk[] = [];
  let at = 8;
  while (at + 12 <= b.length) {
    const length = b.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > b.length) return null;
    const type = b.toString("latin1", at + 4, at + 8);
    const data = b.subarray(at + 8, at + 8 + length);
    chunks.push({ type, data, crcOk: crc32(b.subarray(at + 4, at + 8 + length)) === b.readUInt32BE(at + 8 + length) });
    at = end;
    if (type === "IEND") return at === b.length ? chunks : null;
  }
  return null;
}

/** Structural decode: enough to tell a real image from bytes that only start like one. */
export function decode(bytes: Uint8Array): Decoded | null {
  const format = sniff(bytes);
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === "png") {
    const chunks = pngChunks(b);
    const ihdr = chunks?.[0];
    if (!ihdr || ihdr.type !== "IHDR" || ihdr.data.length !== 13) return null;
    // A corrupt critical chunk (upper-case first letter) makes a decoder give up.
    if (chunks!.some((c) => c.type.charCodeAt(0) < 0x61 && !c.crcOk)) return null;
    const width = ihdr.data.readUInt32BE(0);
    const height = ihdr.data.readUInt32BE(4);
    return width > 0 && height > 0 ? { format, width, height } : null;
  }
  if (format === "jpeg") {
    // End-of-image marker, allowing trailing padding some encoders leave.
    const tail = b.subarray(Math.max(0, b.length - 64));
    for (let i = tail.length - 2; i >= 0; i--)
      if (tail[i] === 0xff && tail[i + 1] === 0xd9) return { format, width: null, height: null };
    return null;
  }
  if (format === "webp") {
    const declared = b.readUInt32LE(4) + 8;
    const fourcc = b.length >= 16 ? b.toString("latin1", 12, 16) : "";
    if (declared > b.length || !["VP8 ", "VP8L", "VP8X"].includes(fourcc)) return null;
    return { format, width: null, height: null };
  }
  return null;
}

const MARKER_PATH = /^[A-Za-z0-9_.\-/]+/;

/**
 * The fixture path a marker names, if the image carries one. In a PNG the
 * marker is the text of a tEXt chunk and is read within that chunk's declared
 * length, never beyond: the CRC that follows can begin with a byte that looks
 * like part of a path. JPEG and WebP have no such chunk in the fixtures, so
 * there the marker is plain bytes, ending at the first byte outside the path
 * alphabet.
 */
export function markerOf(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (sniff(b) === "png") {
    for (const c of pngChunks(b) ?? []) {
      if (c.type !== "tEXt" || !c.crcOk) continue;
      const nul = c.data.indexOf(0);
      const text = nul < 0 ? "" : c.data.toString("latin1", nul + 1);
      if (!text.startsWith(MARKER)) continue;
      const path = text.slice(MARKER.length);
      // The whole text must be the path: a chunk is read exactly, so nothing trails it.
      if (MARKER_PATH.exec(path)?.[0] === path) return path;
    }
    return null;
  }
  const at = b.indexOf(MARKER, 0, "latin1");
  if (at < 0) return null;
  const m = MARKER_PATH.exec(b.toString("latin1", at + MARKER.length, at + MARKER.length + 600));
  return m ? m[0] : null;
}

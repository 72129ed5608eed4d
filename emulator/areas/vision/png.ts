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
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const o = row + 1 + x * 3;
      raw[o] = (seed[0]! + x * 3) & 0xff;
      raw[o + 1] = (seed[1]! + y * 2) & 0xff;
      raw[o + 2] = (seed[2]! + x + y) & 0xff;
    }
  }
  const parts = [
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("tEXt", Buffer.from(`Comment\0${MARKER}${path}`, "latin1")),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
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

/** Structural decode: enough to tell a real image from bytes that only start like one. */
export function decode(bytes: Uint8Array): Decoded | null {
  const format = sniff(bytes);
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === "png") {
    if (b.length < 8 + 25 + 12 || b.toString("latin1", 12, 16) !== "IHDR" || b.readUInt32BE(8) !== 13) return null;
    if (crc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) return null;
    if (b.toString("latin1", b.length - 8, b.length - 4) !== "IEND") return null;
    const width = b.readUInt32BE(16);
    const height = b.readUInt32BE(20);
    return width > 0 && height > 0 ? { format, width, height } : null;
  }
  if (format === "jpeg") {
    // End-of-image marker, allowing trailing padding some encoders leave.
    const tail = b.subarray(Math.max(0, b.length - 64));
    for (let i = tail.length - 2; i >= 0; i--) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return { format, width: null, height: null };
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

/** The fixture path a marker names, if the image carries one (any format: the marker is plain bytes). */
export function markerOf(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = b.indexOf(MARKER, 0, "latin1");
  if (at < 0) return null;
  const m = /^[A-Za-z0-9_.\-/]+/.exec(b.toString("latin1", at + MARKER.length, at + MARKER.length + 600));
  return m ? m[0] : null;
}

import { crc32, inflateSync } from "node:zlib";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MARKER, decode, markerOf, pngChunks, renderPng } from "../../emulator/areas/vision/png.ts";

// PNG chunks are read by their declared lengths. The marker lives in a tEXt
// chunk; the 4-byte CRC right after it is binary and may begin with a byte
// that is a valid path character ('0'-'9', 'A'-'Z', '-', …).

const PATH_CHAR = /[A-Za-z0-9_.\-/]/;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer, crc?: number): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc ?? crc32(body));
  return Buffer.concat([len, body, c]);
}

const textCrc = (path: string) => crc32(Buffer.from(`tEXtComment\0${MARKER}${path}`, "latin1"));

/** The first card path (deterministic search) whose tEXt CRC starts with a path character. */
function pathWithMarkerLikeCrc(): { path: string; crc: number } {
  for (let i = 1; ; i++) {
    const path = `pokemon/base1-${i}/large`;
    const crc = textCrc(path);
    if (PATH_CHAR.test(String.fromCharCode(crc >>> 24))) return { path, crc };
  }
}

describe("markerOf reads a PNG's tEXt chunk within its length", () => {
  it("a chunk whose CRC begins with a path character still yields exactly the path", () => {
    const { path, crc } = pathWithMarkerLikeCrc();
    const png = renderPng({ width: 4, height: 4, path });
    // Precondition: the byte right after the text is the CRC's first byte, and it looks like a path character.
    const textEnd = png.indexOf(path, 0, "latin1") + path.length;
    expect(png.readUInt32BE(textEnd)).toBe(crc);
    expect(PATH_CHAR.test(String.fromCharCode(png[textEnd]!))).toBe(true);
    expect(markerOf(png)).toBe(path);
  });

  it.each(["pokemon/base1-100/large", "pokemon/base1-75/large", "pokemon/swsh7-12/large", "onepiece/OP01-016/large"])(
    "the reported image %s",
    (path) => expect(markerOf(renderPng({ width: 126, height: 176, path }))).toBe(path),
  );

  it("ignores a marker outside a tEXt chunk, in a tEXt chunk with a bad CRC, or after a broken chunk", () => {
    const ihdr = renderPng({ width: 2, height: 2, path: "x" }).subarray(8, 8 + 25);
    const iend = chunk("IEND", Buffer.alloc(0));
    const text = Buffer.from(`Comment\0${MARKER}pokemon/base1-4/large`, "latin1");
    const build = (...chunks: Buffer[]) => Buffer.concat([SIGNATURE, ihdr, ...chunks, iend]);
    expect(markerOf(build(chunk("tEXt", text)))).toBe("pokemon/base1-4/large");
    expect(markerOf(build(chunk("zzZz", text)))).toBeNull();
    expect(markerOf(build(chunk("tEXt", text, 0x41424344)))).toBeNull();
    // The text must be the whole path: nothing trails it inside the chunk.
    expect(markerOf(build(chunk("tEXt", Buffer.concat([text, Buffer.from(" and more")]))))).toBeNull();
    // A declared length past the end of the file: the structure is broken, nothing is read.
    const broken = build(chunk("tEXt", text));
    broken.writeUInt32BE(0xffff, 8 + 25);
    expect(markerOf(broken)).toBeNull();
  });

  it("JPEG and WebP carry the marker as plain bytes, ending at the first byte outside the path alphabet", () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xfe]),
      Buffer.from(`${MARKER}onepiece/OP01-016/small`),
      Buffer.from([0xff, 0xd9]),
    ]);
    expect(markerOf(jpeg)).toBe("onepiece/OP01-016/small");
  });
});

describe("pngChunks and decode", () => {
  it("lists chunks by length, type, data and CRC", () => {
    const png = renderPng({ width: 5, height: 3, path: "pokemon/base1-4/small" });
    const chunks = pngChunks(png)!;
    expect(chunks.map((c) => c.type)).toEqual(["IHDR", "tEXt", "IDAT", "IEND"]);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    expect(chunks[1]!.data.toString("latin1")).toBe(`Comment\0${MARKER}pokemon/base1-4/small`);
    expect(decode(png)).toEqual({ format: "png", width: 5, height: 3 });
  });

  it("a truncated file, a missing IEND, bytes after IEND or a corrupt critical chunk do not decode", () => {
    const png = renderPng({ width: 5, height: 3, path: "p" });
    expect(pngChunks(png.subarray(0, png.length - 1))).toBeNull();
    expect(pngChunks(png.subarray(0, png.length - 12))).toBeNull(); // IEND cut off at a chunk boundary
    expect(pngChunks(Buffer.concat([png, Buffer.from("junk")]))).toBeNull();
    for (const bad of [png.subarray(0, png.length - 1), png.subarray(0, png.length - 12)])
      expect(decode(bad)).toBeNull();
    const idat = Buffer.from(png);
    const at = idat.indexOf("IDAT", 0, "latin1");
    idat[at + 6] = idat[at + 6]! ^ 0xff; // flip a data byte: the IDAT CRC no longer matches
    expect(decode(idat)).toBeNull();
  });

  it("renders the seeded gradient (Sub-filtered rows decode to the same pixels)", () => {
    const [width, height, path] = [7, 5, "pokemon/base1-4/large"];
    const png = renderPng({ width, height, path });
    const chunks = pngChunks(png)!;
    const raw = inflateSync(chunks.find((c) => c.type === "IDAT")!.data);
    const seed = createHash("sha256").update(path).digest();
    const stride = width * 3 + 1;
    for (let y = 0; y < height; y++) {
      expect(raw[y * stride]).toBe(1);
      const px: number[] = [];
      for (let i = 0; i < width * 3; i++) px.push(((i >= 3 ? px[i - 3]! : 0) + raw[y * stride + 1 + i]!) & 0xff);
      for (let x = 0; x < width; x++)
        expect(px.slice(x * 3, x * 3 + 3)).toEqual([
          (seed[0]! + x * 3) & 0xff,
          (seed[1]! + y * 2) & 0xff,
          (seed[2]! + x + y) & 0xff,
        ]);
    }
  });
});

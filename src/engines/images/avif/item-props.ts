import { ByteWriter } from "../util/bytes";
import type { ItemProp } from "./heif-writer";

// The item property boxes of an AVIF image item, byte for byte as libavif
// writes them for an 8-bit picture: ispe (size), pixi (bits per channel), av1C
// (the AV1 codec configuration, essential), colr 'nclx' (colour coding) on a
// colour item, auxC (alpha URN) on an alpha item.

const ALPHA_URN = "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha";

function prop(type: string, essential: boolean, body: (w: ByteWriter) => void, version?: number): ItemProp {
  const w = new ByteWriter(64);
  w.u32be(0);
  w.text(type);
  if (version !== undefined) w.u32be(version << 24);
  body(w);
  const box = w.result();
  new DataView(box.buffer, box.byteOffset).setUint32(0, box.length);
  return { box, type, essential };
}

export function ispe(width: number, height: number): ItemProp {
  return prop("ispe", false, (w) => (w.u32be(width), w.u32be(height)), 0);
}

/** 8 bits in each of `channels` channels. */
export function pixi(channels: 1 | 3): ItemProp {
  return prop(
    "pixi",
    false,
    (w) => {
      w.u8(channels);
      for (let i = 0; i < channels; i++) w.u8(8);
    },
    0,
  );
}

/** What av1C repeats from an 8-bit AV1 sequence header. */
export interface Av1Config {
  profile: number;
  level: number;
  tier: number;
  monochrome: boolean;
  subsamplingX: boolean;
  subsamplingY: boolean;
}

/** av1C (AV1-ISOBMFF 2.3.3): marker, version 1, no configOBUs (the payload carries its sequence header). */
export function av1C(c: Av1Config): ItemProp {
  return prop("av1C", true, (w) => {
    w.u8(0x81);
    w.u8((c.profile << 5) | c.level);
    w.u8((c.tier << 7) | (c.monochrome ? 0x10 : 0) | (c.subsamplingX ? 0x08 : 0) | (c.subsamplingY ? 0x04 : 0));
    w.u8(0); // no initial_presentation_delay
  });
}

/**
 * colr 'nclx' for what our encoder writes: primaries and transfer unspecified
 * (2, read as sRGB), matrix BT.601 (6), full range, the same values the AV1
 * sequence header carries.
 */
export function colrNclx(): ItemProp {
  return prop("colr", false, (w) => {
    w.text("nclx");
    w.u16be(2);
    w.u16be(2);
    w.u16be(6);
    w.u8(0x80);
  });
}

export function auxCAlpha(): ItemProp {
  return prop(
    "auxC",
    false,
    (w) => {
      w.text(ALPHA_URN);
      w.u8(0);
    },
    0,
  );
}

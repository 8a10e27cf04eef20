import { ByteWriter } from "../util/bytes";

// A HEIF still-image file (ISO/IEC 23008-12) from a list of items, as both our
// AVIF writers need it: a single picture (still.ts: a colour item and maybe its
// alpha item) and a grid (grid-container.ts: grid items over hidden tiles).
//
//   ftyp  avif, compatible brands as given
//   meta  hdlr 'pict', pitm, iloc (v0, 4-byte offsets and lengths), iinf
//         (infe v2), iref, iprp (ipco with each distinct property box once,
//         ipma)
//   mdat  every distinct payload once, in item order
//
// The layout is the one libavif writes (its files are what every decoder is
// tested against): iloc before iinf, all data in mdat (construction method 0).

/** One property box (whole box bytes) and its ipma essential flag. */
export interface ItemProp {
  box: Uint8Array;
  type: string;
  essential: boolean;
}

export interface HeifItem {
  id: number;
  type: "av01" | "grid";
  name: string;
  /** Hidden items (infe flags bit 0) are parts of another item, such as grid tiles. */
  hidden: boolean;
  payload: Uint8Array;
  props: ItemProp[];
}

/** One iref entry: `from` refers to `to` with reference type `type` ('dimg', 'auxl'). */
export interface ItemReference {
  type: "dimg" | "auxl";
  from: number;
  to: number[];
}

interface HeifFile {
  /** ftyp compatible brands (the major brand is always 'avif'). */
  brands: readonly string[];
  primary: number;
  items: readonly HeifItem[];
  references?: readonly ItemReference[];
}

/** Writes a box whose size is patched once its body is written. */
function box(w: ByteWriter, type: string, body: () => void, full?: { version: number; flags: number }): void {
  const start = w.length;
  w.u32be(0);
  w.text(type);
  if (full) w.u32be((full.version << 24) | full.flags);
  body();
  w.patchU32be(start, w.length - start);
}

/** ipco with identical boxes stored once, and each item's [1-based index, essential] list. */
function propertyTable(items: readonly HeifItem[]): { boxes: Uint8Array[]; assoc: [number, boolean][][] } {
  const index = new Map<string, number>();
  const boxes: Uint8Array[] = [];
  const keyOf = (p: Uint8Array) => {
    let s = "";
    for (let i = 0; i < p.length; i++) s += String.fromCharCode(p[i]);
    return s;
  };
  const assoc = items.map((it) =>
    it.props.map((p): [number, boolean] => {
      const k = keyOf(p.box);
      let idx = index.get(k);
      if (idx === undefined) {
        boxes.push(p.box);
        idx = boxes.length;
        index.set(k, idx);
      }
      return [idx, p.essential];
    }),
  );
  return { boxes, assoc };
}

export function writeHeif(file: HeifFile): Uint8Array {
  const { items, brands, primary } = file;
  if (items.length > 0xffff || items.some((it) => it.id < 1 || it.id > 0xffff)) throw new Error("HEIF: item ids must fit 16 bits.");
  const { boxes, assoc } = propertyTable(items);
  const wideIndex = boxes.length > 127;

  const w = new ByteWriter(4096 + items.length * 64);
  box(w, "ftyp", () => {
    w.text("avif");
    w.u32be(0);
    for (const br of brands) w.text(br);
  });

  const ilocFixups: { at: number; item: HeifItem }[] = [];
  box(
    w,
    "meta",
    () => {
      box(
        w,
        "hdlr",
        () => {
          w.u32be(0); // pre_defined
          w.text("pict");
          w.u32be(0);
          w.u32be(0);
          w.u32be(0);
          w.u8(0); // empty name
        },
        { version: 0, flags: 0 },
      );
      box(w, "pitm", () => w.u16be(primary), { version: 0, flags: 0 });
      box(
        w,
        "iloc",
        () => {
          w.u8(0x44); // offset_size 4, length_size 4
          w.u8(0x00); // base_offset_size 0, reserved
          w.u16be(items.length);
          for (const it of items) {
            w.u16be(it.id);
            w.u16be(0); // data_reference_index
            w.u16be(1); // extent_count
            ilocFixups.push({ at: w.length, item: it });
            w.u32be(0); // extent_offset, patched below
            w.u32be(it.payload.length);
          }
        },
        { version: 0, flags: 0 },
      );
      box(
        w,
        "iinf",
        () => {
          w.u16be(items.length);
          for (const it of items) {
            box(
              w,
              "infe",
              () => {
                w.u16be(it.id);
                w.u16be(0); // item_protection_index
                w.text(it.type);
                w.text(it.name);
                w.u8(0);
              },
              { version: 2, flags: it.hidden ? 1 : 0 },
            );
          }
        },
        { version: 0, flags: 0 },
      );
      if (file.references?.length) {
        box(
          w,
          "iref",
          () => {
            for (const ref of file.references!) {
              box(w, ref.type, () => {
                w.u16be(ref.from);
                w.u16be(ref.to.length);
                for (const t of ref.to) w.u16be(t);
              });
            }
          },
          { version: 0, flags: 0 },
        );
      }
      box(w, "iprp", () => {
        box(w, "ipco", () => {
          for (const p of boxes) w.bytes(p);
        });
        box(
          w,
          "ipma",
          () => {
            w.u32be(items.length);
            items.forEach((it, i) => {
              w.u16be(it.id);
              w.u8(assoc[i].length);
              for (const [idx, ess] of assoc[i]) {
                if (wideIndex) w.u16be((ess ? 0x8000 : 0) | idx);
                else w.u8((ess ? 0x80 : 0) | idx);
              }
            });
          },
          { version: 0, flags: wideIndex ? 1 : 0 },
        );
      });
    },
    { version: 0, flags: 0 },
  );

  // mdat: each distinct payload once (a grid's colour and alpha grids share one descriptor).
  let dataSize = 0;
  const seen = new Set<Uint8Array>();
  for (const it of items) if (!seen.has(it.payload)) seen.add(it.payload), (dataSize += it.payload.length);
  const mdatHeader = dataSize + 8 > 0xffffffff ? 16 : 8;
  const metaEnd = w.length;
  const out = new Uint8Array(metaEnd + mdatHeader + dataSize);
  out.set(w.result(), 0);
  const view = new DataView(out.buffer);
  let at = metaEnd;
  if (mdatHeader === 8) view.setUint32(at, 8 + dataSize);
  else {
    view.setUint32(at, 1);
    view.setUint32(at + 8, Math.floor((16 + dataSize) / 2 ** 32));
    view.setUint32(at + 12, (16 + dataSize) >>> 0);
  }
  out.set([0x6d, 0x64, 0x61, 0x74], at + 4); // "mdat"
  at += mdatHeader;
  const placed = new Map<Uint8Array, number>();
  for (const { at: fix, item } of ilocFixups) {
    let offset = placed.get(item.payload);
    if (offset === undefined) {
      offset = at;
      out.set(item.payload, at);
      at += item.payload.length;
      placed.set(item.payload, offset);
    }
    if (offset > 0xffffffff) throw new Error("HEIF: file over 4 GB.");
    view.setUint32(fix, offset);
  }
  return out;
}

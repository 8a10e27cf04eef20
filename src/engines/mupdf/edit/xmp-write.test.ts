import { describe, expect, it } from "vitest";
import { parseXmp } from "../../text/xmp";
import { newPacket, updatePacket } from "./xmp-write";

const read = (text: string) => parseXmp(new TextEncoder().encode(text));
const count = (text: string, q: string) => (text.match(new RegExp(`<${q}[\\s>/]|\\s${q}\\s*=`, "g")) ?? []).length;

describe("XMP packets", () => {
  it("a new packet holds the fields, escaped, and a writable padding", () => {
    const text = newPacket({ title: "A & <B>", author: "Ann", keywords: ["x", "y"], metadataDate: "2026-12-03T08:00:00Z" });
    const x = read(text);
    expect(x.text1("dc", "title")).toBe("A & <B>");
    expect(x.values("dc", "creator")).toEqual(["Ann"]);
    expect(x.values("dc", "subject")).toEqual(["x", "y"]);
    expect(x.text1("pdf", "Keywords")).toBe("x, y");
    expect(x.text1("xmp", "MetadataDate")).toBe("2026-12-03T08:00:00Z");
    expect(count(text, "dc:description")).toBe(0);
    expect(text).toMatch(/<\?xpacket end="w"\?>$/);
  });

  it("an update removes managed properties in every form and prefix, keeps the rest, and names the same resource", () => {
    const old = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<r:Description r:about="uuid:9" xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:ModifyDate="2001-01-01" xmp:Rating="3">
<d:title><r:Alt><r:li xml:lang="x-default">Old</r:li></r:Alt></d:title><d:rights>Keep</d:rights><d:subject/></r:Description>
<r:Description r:about="uuid:9" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer='Old producer'/></r:RDF></x:xmpmeta><?xpacket end="w"?>`;
    const text = updatePacket(old, { title: "New", producer: "P", metadataDate: "2026-12-03T08:00:00Z" });
    expect(text).not.toContain("Old");
    expect(text).not.toContain("2001-01-01");
    expect(count(text, "d:subject")).toBe(0);
    expect(text).toContain("<d:rights>Keep</d:rights>");
    expect(text).toContain('xmp:Rating="3"');
    const x = read(text);
    expect(x.text1("dc", "title")).toBe("New");
    expect(x.text1("pdf", "Producer")).toBe("P");
    expect([...text.matchAll(/about="([^"]*)"/g)].map((m) => m[1])).toEqual(["uuid:9", "uuid:9", "uuid:9"]);
    expect(text.indexOf("<rdf:Description")).toBeLessThan(text.indexOf("</r:RDF>"));
  });

  it("a packet without rdf:RDF is replaced", () => {
    const text = updatePacket("<x:xmpmeta>junk</x:xmpmeta>", { title: "T", metadataDate: "2026-12-03T08:00:00Z" });
    expect(text).not.toContain("junk");
    expect(read(text).text1("dc", "title")).toBe("T");
  });
});

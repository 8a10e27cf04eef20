import { heapSuite } from "./calls";

heapSuite(["repair", "watermark_text", "watermark_image", "page_numbers"]);

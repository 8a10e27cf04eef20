import { heapSuite } from "./calls";

heapSuite(["redact"]);

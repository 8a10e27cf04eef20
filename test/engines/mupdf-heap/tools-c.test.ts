import { heapSuite } from "./calls";

heapSuite(["metadata", "pdfa"]);

import { heapSuite } from "./calls";

heapSuite(["merge", "split", "compress", "unlock"]);

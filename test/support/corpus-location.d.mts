export declare const CORPUS_ROOT: string;
export declare const CORPUS_AVAILABLE: boolean;
export declare const CORPUS_REQUIRED: boolean;
export declare const CORPUS_NOTICE: string;
export declare function announceCorpus(log?: (line: string) => void): boolean;

export declare const CORPUS_ROOT: string;
export declare function corpusService(request: Request): Promise<Response>;

export declare function corpusService(request: Request): Promise<Response>;

export function layoutCorpusService(request: Request): Promise<Response>;

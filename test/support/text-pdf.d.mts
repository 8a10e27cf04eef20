export declare function textPdf(pages: number): Promise<Uint8Array>;

export declare function startAiStub(): Promise<{ origin: string }>;

export declare function startPageServer(): Promise<{ origin: string; deadOrigin: string }>;

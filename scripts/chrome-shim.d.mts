export declare const CHROME_CACHE_HOME: string;
export declare const CHROMIUM_REQUIRED: boolean;
export declare const CHROMIUM_NOTICE: string;
export declare function browserVersions(): string[];
export declare function systemChromium(): string | null;
export declare function prepareChrome(): boolean;
export declare function announceChrome(log?: (line: string) => void): boolean;

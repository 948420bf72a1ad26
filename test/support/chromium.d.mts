/** Debian's Chromium, or the one named by CHROME_PATH. */
export declare const CHROMIUM_PATH: string;
/** Launch flags that keep Chromium from hanging on a closed network. */
export declare const CHROMIUM_ARGS: readonly string[];

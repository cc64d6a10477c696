/** Types of bin/cli-bundle.mjs (plain JavaScript: bin/structlab.mjs runs it without a compiler). */
export declare const CLI_ROOT: string;
export declare const CLI_BUNDLE: string;
export declare const CLI_INPUTS: string;
export declare function bundleIsFresh(root: string): boolean;
export declare function cliBundleIsFresh(): boolean;

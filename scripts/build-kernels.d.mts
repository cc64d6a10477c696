/** Types of scripts/build-kernels.mjs (plain JavaScript: `npm ci` runs it before any compiler is set up). */
export declare const KERNELS_GENERATED: string;
export declare function ensureKernels(): Promise<boolean>;
/** The hash of the kernels' sources, compiler version and flags that the generated module records. */
export declare function sourcesHash(): string;

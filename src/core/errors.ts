/** The message of anything thrown, for a sentence shown to the user (an Error's message, else its text). */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

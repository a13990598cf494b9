// What the server reads from the built app besides the files it serves (the build writes it, build/launch-preload.ts).

/** The first renders' module, relative to the built app's folder (a dot folder: never served as a file). */
export const FIRST_SCREEN_MODULE = ".server/first-screen.mjs";

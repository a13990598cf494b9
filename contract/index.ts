export * from "./enums";
export * from "./errors";
export * from "./money";
export * from "./routes";
export * from "./settings";
export * from "./user";

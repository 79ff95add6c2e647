// `ai`'s declaration files import `JSONSchema7` types from the `json-schema` package, which ships none
// (and they name DOM types, hence "DOM" in tsconfig's lib). With skipLibCheck false the ai-sdk example
// type-checks only with these stand-ins (install @types/json-schema in your project for the real ones).
declare module 'json-schema' {
  export type JSONSchema7 = Record<string, unknown>;
  export type JSONSchema7Definition = JSONSchema7 | boolean;
}

/*
 * The parts of the Gemini API wire format (`models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`) this adapter writes. The request side is checked against the
 * `@google/genai` package's own published types by tests (its enums as their string values);
 * answers are read leniently, field by field.
 */

/** A function call part's call: whole (`args`), or, streamed by Vertex AI, in pieces. */
export interface GoogleFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  /** The call's id, sent back only when the API gave one. */
  id?: string;
}

/** A medium of a function response: inline bytes or a file URI, with its MIME type. */
export type GoogleFunctionResponsePart =
  | { inlineData: { mimeType: string; data: string; displayName?: string } }
  | { fileData: { mimeType: string; fileUri: string; displayName?: string } };

/** One part of a content. */
export type GooglePart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { functionCall: GoogleFunctionCall; thoughtSignature?: string }
  | {
      functionResponse: {
        name: string;
        /** The tool's result: its JSON value when it is JSON text, else the text. */
        response: { output: unknown } | { error: unknown };
        /** The result's media (Gemini 3 multimodal function responses). */
        parts?: GoogleFunctionResponsePart[];
        id?: string;
      };
    }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType: string; fileUri: string } }
  | Record<string, unknown>;

/** A turn of the conversation. */
export interface GoogleContent {
  role: 'user' | 'model';
  parts: GooglePart[];
}

/** The JSON Schema subset a function declaration's `parameters` accept (OpenAPI 3.0 style). */
export interface GoogleSchema {
  type?: 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  default?: unknown;
  properties?: Record<string, GoogleSchema>;
  required?: string[];
  propertyOrdering?: string[];
  items?: GoogleSchema;
  anyOf?: GoogleSchema[];
  minimum?: number;
  maximum?: number;
  /** int64 counts travel as strings in the API's JSON. */
  minLength?: string;
  maxLength?: string;
  minItems?: string;
  maxItems?: string;
  minProperties?: string;
  maxProperties?: string;
  pattern?: string;
}

/** A function tool. `parameters` is absent for a function that takes none. */
export interface GoogleFunctionDeclaration {
  name: string;
  description: string;
  parameters?: GoogleSchema;
}

/** `toolConfig.functionCallingConfig.mode`. */
export type GoogleFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

/** `toolConfig` of a request. */
export interface GoogleToolConfig {
  functionCallingConfig: {
    mode: GoogleFunctionCallingMode;
    allowedFunctionNames?: string[];
    /** Vertex AI: stream a call's arguments as `partialArgs`. */
    streamFunctionCallArguments?: boolean;
  };
}

/** `generationConfig.thinkingConfig`. */
export interface GoogleThinkingConfig {
  /** Tokens the model may think with (Gemini 2.5); `0` turns thinking off, `-1` lets it decide. */
  thinkingBudget?: number;
  /** Return thought summaries as `thought: true` parts (kept as `metadata.reasoningContent`). */
  includeThoughts?: boolean;
  /** How much the model thinks (Gemini 3). */
  thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
}

/** One safety setting. */
export interface GoogleSafetySetting {
  category:
    | 'HARM_CATEGORY_HARASSMENT'
    | 'HARM_CATEGORY_HATE_SPEECH'
    | 'HARM_CATEGORY_SEXUALLY_EXPLICIT'
    | 'HARM_CATEGORY_DANGEROUS_CONTENT'
    | 'HARM_CATEGORY_CIVIC_INTEGRITY';
  threshold:
    | 'BLOCK_LOW_AND_ABOVE'
    | 'BLOCK_MEDIUM_AND_ABOVE'
    | 'BLOCK_ONLY_HIGH'
    | 'BLOCK_NONE'
    | 'OFF';
}

/** `generationConfig` of a request. */
export interface GoogleGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GoogleThinkingConfig;
}

/** A `generateContent` request body. */
export interface GoogleGenerateContentRequest {
  contents: GoogleContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: GoogleFunctionDeclaration[] }[];
  toolConfig?: GoogleToolConfig;
  generationConfig?: GoogleGenerationConfig;
  safetySettings?: GoogleSafetySetting[];
  cachedContent?: string;
  [extra: string]: unknown;
}

/**
 * How the parts of a model turn are kept on the assistant message (`metadata.geminiParts`, in
 * part order) so the next request sends them back as they came, each thought signature on the
 * part that carried it: a run of text (its length in the message's `text`), a thought summary
 * (its length in `metadata.reasoningContent`), a function call (the next one of `toolCalls`,
 * whose own signature is in its `metadata.thoughtSignature`), or any other part as it came.
 * Kept only for a turn that had a signature, a thought or another part.
 */
export type GeminiPartRecord =
  | { kind: 'text'; length: number; thoughtSignature?: string }
  | { kind: 'thought'; length: number; thoughtSignature?: string }
  | { kind: 'functionCall' }
  | { kind: 'other'; part: Record<string, unknown> };

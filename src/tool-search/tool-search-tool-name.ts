/** The search tool's name. */
export const TOOL_SEARCH_TOOL_NAME = 'toolSearchTool';

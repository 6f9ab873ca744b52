/** An authenticated caller of `McpToolServer`, as the server's `verifyToken` returns it. */
export interface McpPrincipal {
  /** Stable id (a user or client id); a session belongs to the principal that opened it. */
  readonly id: string;
  /** Granted scopes, checked against `auth.toolScopes`. */
  readonly scopes: readonly string[];
  /** Anything else the tool context may need (tenant, roles, …). */
  readonly attributes?: Readonly<Record<string, unknown>>;
}

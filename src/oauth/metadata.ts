// Discovery: RFC 8414 authorization-server metadata and RFC 9728 protected-resource metadata of
// /mcp. Every URL is built from the public base (STAYS_PUBLIC_URL, else the request's origin).
import { MCP_PATH, SCOPE } from './urls.js';

export function authorizationServerMetadata(base: string, docsUrl: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    scopes_supported: [SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: docsUrl,
  };
}

export function protectedResourceMetadata(base: string, docsUrl: string) {
  return {
    resource: `${base}${MCP_PATH}`,
    authorization_servers: [base],
    scopes_supported: [SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'stays MCP tool server',
    resource_documentation: docsUrl,
  };
}

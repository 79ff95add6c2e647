export {
  AskInputShape,
  AskOutputShape,
  createMosaicMcpServer,
  documentUri,
  SearchInputShape,
  SearchOutputShape,
  type MosaicMcpServerOptions,
} from './mcp-server.js';
export { createMcpHttpHandler, serveMcpStdio, startMcpHttpServer, type McpHttpServerOptions } from './transports.js';

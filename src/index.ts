// The library API of the `stays` package.
export { createApp } from './app.js';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
export { startServer, type RunningServer, type ServeOptions } from './server.js';
export { ServiceError, ERROR_CODES, ERROR_TYPES, type ErrorCode, type ErrorType } from './core/errors.js';
export * from './core/schemas/resources.js';
export * from './core/schemas/params.js';
export { createClient, StaysApiError, StaysConnectionError, StaysPaginationError, StaysWaitTimeoutError, type ClientOptions, type StaysClient } from './client/index.js';
export { verifyWebhook, signatureHeader, SIGNATURE_HEADER, EVENT_ID_HEADER, DEFAULT_TOLERANCE_SECONDS, type VerifyOptions, type VerifyResult } from './webhooks/sign.js';

// Bounded error text lives in util/ (net/ and mcp/ quote and cap errors too); the
// tools import it from here.
export { capErrorText, describeValue, ERROR_MAX_CHARS, quoteArg } from '../../util/error-text.ts';

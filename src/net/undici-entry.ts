// undici, bundled apart from the main code and embedded as data
// (scripts/bundle/embedded.mjs): loaded on the first network tool call.
export { Agent, buildConnector, fetch } from 'undici';

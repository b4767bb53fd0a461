// The provider packages, bundled apart from the main code and embedded as data
// (scripts/bundle/embedded.mjs): loaded only when a run names a provider model.
export { createAnthropic } from '@ai-sdk/anthropic';
export { createGoogleGenerativeAI } from '@ai-sdk/google';
export { createVertex } from '@ai-sdk/google-vertex';
export { createOpenAI } from '@ai-sdk/openai';
export { createOpenAICompatible } from '@ai-sdk/openai-compatible';

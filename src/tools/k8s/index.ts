import members from 'virtual:tool-family';
import { familyTools } from '../family.ts';

/** The Kubernetes family: read-only views of the configured cluster. */
export const tools = familyTools('k8s', members);

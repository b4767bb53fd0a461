import members from 'virtual:tool-family';
import { defineFamily } from '../framework/family.ts';
import { missing, services } from './services.ts';

/** The Kubernetes family: read-only views of the configured cluster. */
export const family = defineFamily('k8s', members, { services, missing });

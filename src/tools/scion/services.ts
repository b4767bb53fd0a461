import { findOnPath } from '../../util/find-on-path.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** The sciontool binary on the PATH commands run with (sciontool_status): present only inside a Scion container. */
    readonly sciontool?: string | undefined;
  }
}

export const services: FamilyServices = (ctx) => ({ sciontool: findOnPath('sciontool', ctx.commandEnv) });

export const missing: MissingReasons = {
  sciontool: () => 'sciontool is not on the PATH commands run with (not in a Scion container)',
};

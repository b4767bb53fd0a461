import * as z from 'zod/v4';
import { ACL_ENTRY, ACL_ENTRY_RULE } from '../core/principal.ts';
import { parseAllowedHost } from '../net/allowed-hosts.ts';

const aclList = z.array(z.string().regex(ACL_ENTRY, ACL_ENTRY_RULE)).max(256);

/** HOST:PORT, [IPV6]:PORT, :PORT or PORT — what `--listen` takes (watch/listen.ts parses it). */
const LISTEN = /^(?:(?:\[[^\]]+\]|[^:[\]]*):)?\d{1,5}$/;

/**
 * The recipe's `attach:` section: the attach daemon's HTTP API (docs/attach.md).
 * `core-agent serve` takes its defaults from here (its flags win); `core-agent
 * watch` serves the same API beside its health endpoints when the section is
 * there, so an operator can follow a live incident's session.
 */
export const attachSchema = z
  .strictObject({
    listen: z
      .string()
      .regex(LISTEN, 'give HOST:PORT, e.g. 127.0.0.1:7777')
      .describe('Where the API listens, HOST:PORT. Off loopback it needs token_env.'),
    token_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .optional()
      .describe('The variable holding the bearer token, or NAME=TOKEN,NAME2=TOKEN2 (each NAME is the principal recorded).'),
    allowed_hosts: z
      .array(
        z
          .string()
          .max(300)
          .superRefine((entry, ctx) => {
            try {
              parseAllowedHost(entry);
            } catch (err) {
              ctx.addIssue({ code: 'custom', message: (err as Error).message });
            }
          }),
      )
      .max(64)
      .optional()
      .describe(
        'Host names the API answers to besides its own address and loopback, HOST or HOST:PORT (a Service name, an ingress host); "*" takes any Host (needs token_env). Any other Host is refused (DNS rebinding).',
      ),
    users_file: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe(
        'A users file (YAML or JSON, mode 0600): each principal with its group, tenant, admin role and token_env or token_sha256 (docs/users.md). serve --users-file and CORE_AGENT_USERS_FILE win.',
      ),
    workspace: z
      .enum(['shared', 'per_user'])
      .optional()
      .describe("Each session's workspace: shared (default, the daemon's) or per_user (the owner's home's workspace/, made 0700)."),
    incident_access: z
      .strictObject({ viewers: aclList.optional(), contributors: aclList.optional() })
      .optional()
      .describe(
        "watch: who may follow (viewers) or drive (contributors) an incident's session, owned by the service principal. Entries: a name, group:NAME, tenant:NAME or * (any authenticated principal). Default viewers [*].",
      ),
    prompt_timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .describe('How long a permission prompt waits for a remote answer before it is denied (default 300).'),
  })
  .describe('The attach daemon: sessions, their events and permission prompts over HTTP (core-agent serve; inside watch).');

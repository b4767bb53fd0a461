/**
 * What sciontool_status makes of sciontool's outcome. sciontool exits 0 when only
 * the hub report failed, so each case is a sciontool behaviour (the stand-in's
 * switches, and the hub it is pointed at) and what the model must be told: the
 * result, or the error. `recorded`: the activity agent-info.json must hold after
 * (null: sciontool wrote none). One case a line.
 */
export interface StatusOutcomeCase {
  readonly name: string;
  /** none: SCION_HUB_ENDPOINT unset (local mode); accepts/errors: a hub on 127.0.0.1 answering 200/500; unreachable: a closed port. */
  readonly hub: 'none' | 'accepts' | 'errors' | 'unreachable';
  readonly env?: Readonly<Record<string, string>>;
  readonly statusType: 'ask_user' | 'blocked' | 'task_completed' | 'limits_exceeded';
  readonly expect: 'reported' | RegExp;
  readonly recorded: string | null;
}

const NOT_AT_HUB =
  /was not delivered: it is recorded in the container \(agent-info\.json\) but the Scion hub did not get it\. sciontool said: Failed to report to Hub: .*Do not repeat the call/;

export const STATUS_OUTCOME_CASES: readonly StatusOutcomeCase[] = [
  { name: 'local mode, no hub', hub: 'none', statusType: 'task_completed', expect: 'reported', recorded: 'completed' },
  { name: 'the hub takes it', hub: 'accepts', statusType: 'task_completed', expect: 'reported', recorded: 'completed' },
  { name: 'the hub takes ask_user', hub: 'accepts', statusType: 'ask_user', expect: 'reported', recorded: 'waiting_for_input' },
  { name: 'the hub is unreachable', hub: 'unreachable', statusType: 'task_completed', expect: NOT_AT_HUB, recorded: 'completed' },
  { name: 'the hub is unreachable, blocked', hub: 'unreachable', statusType: 'blocked', expect: NOT_AT_HUB, recorded: 'blocked' },
  { name: 'the hub answers 500', hub: 'errors', statusType: 'limits_exceeded', expect: NOT_AT_HUB, recorded: 'limits_exceeded' },
  {
    name: 'agent-info.json cannot be written',
    hub: 'none',
    env: { SCIONTOOL_LOCAL_FAIL: '1' },
    statusType: 'blocked',
    expect: /not delivered: not even the container's agent-info\.json has it\. sciontool said: Failed to update status: .*read-only/,
    recorded: null,
  },
  {
    name: 'both fail',
    hub: 'unreachable',
    env: { SCIONTOOL_LOCAL_FAIL: '1' },
    statusType: 'task_completed',
    expect: /not even the container's agent-info\.json has it\. sciontool said: Failed to update status: .*; Failed to report to Hub/,
    recorded: null,
  },
  {
    name: 'a sciontool without the status type',
    hub: 'none',
    env: { SCIONTOOL_OLD: 'blocked' },
    statusType: 'blocked',
    expect:
      /not delivered: sciontool did not take it \(an older sciontool without this status type\?\)\. sciontool said: unknown status type "blocked"/,
    recorded: null,
  },
  {
    name: 'sciontool exits non-zero',
    hub: 'none',
    env: { SCIONTOOL_FAIL: '1' },
    statusType: 'blocked',
    expect: /sciontool status blocked failed \(exit status 3\).*the hub said no.*Carry on/s,
    recorded: null,
  },
];

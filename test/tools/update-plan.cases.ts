/**
 * update_plan's argument rules as data: [what, arguments, null when accepted or
 * a pattern the refusal must match]. A new rule is one line.
 */
export type UpdatePlanCase = [what: string, args: unknown, refused: RegExp | null];

const step = (s: string, status: string) => ({ step: s, status });

export const UPDATE_PLAN_CASES: UpdatePlanCase[] = [
  ['one pending step', { plan: [step('read', 'pending')] }, null],
  ['one in_progress among others', { plan: [step('a', 'completed'), step('b', 'in_progress'), step('c', 'pending')] }, null],
  ['all completed', { plan: [step('a', 'completed'), step('b', 'completed')] }, null],
  ['no step in progress', { plan: [step('a', 'pending'), step('b', 'pending')] }, null],
  ['with an explanation', { explanation: 'found the cause', plan: [step('fix', 'in_progress')] }, null],
  ['two in_progress', { plan: [step('a', 'in_progress'), step('b', 'in_progress')] }, /2 steps are in_progress \("a", "b"\); at most one/],
  [
    'three in_progress',
    { plan: [step('a', 'in_progress'), step('b', 'in_progress'), step('c', 'in_progress')] },
    /3 steps are in_progress/,
  ],
  ['an empty plan', { plan: [] }, /plan needs at least 1 item/],
  ['no plan at all', {}, /plan is required/],
  ['an unknown status', { plan: [step('a', 'done')] }, /plan\[0\]\.status must be one of "pending", "in_progress", "completed"/],
  ['an empty step', { plan: [step('', 'pending')] }, /plan\[0\]\.step is empty/],
  ['a step over its limit', { plan: [step('x'.repeat(501), 'pending')] }, /above its limit of 500/],
  [
    'an unknown field in a step',
    { plan: [{ step: 'a', status: 'pending', note: 'x' }] },
    /unknown key in plan\[0\] "note" \(valid: step, status\)/,
  ],
  ['an unknown top-level field', { plan: [step('a', 'pending')], steps: [] }, /unknown argument "steps" \(valid: explanation, plan\)/],
  [
    'more than 50 steps',
    { plan: Array.from({ length: 51 }, (_, i) => step(`s${i}`, 'pending')) },
    /plan has 51 items, more than the 50 allowed/,
  ],
  ['an empty explanation', { explanation: '', plan: [step('a', 'pending')] }, /explanation is empty/],
];

/** Every file tool, with arguments that would read, change or remove what `p` names. */
export const fileTools = (p: string) =>
  [
    ['read_file', { path: p }],
    ['read_many_files', { pattern: '*', path: p }],
    ['write_file', { path: p, content: 'pwned' }],
    ['edit_file', { path: p, old_string: 'secret', new_string: 'pwned' }],
    ['stat', { path: p }],
    ['list_dir', { path: p }],
    ['glob', { pattern: '*', path: p }],
    ['grep', { pattern: 'secret', path: p }],
    ['json_query', { expression: '.', path: p }],
    ['view_file_outline', { path: p }],
    ['apply_patch', { patch: `*** Begin Patch\n*** Update File: ${p}\n@@\n-secret\n+pwned\n*** End Patch\n` }],
    ['apply_patch', { patch: `*** Begin Patch\n*** Add File: ${p}\n+pwned\n*** End Patch\n` }],
    ['change_working_directory', { path: p }],
    ['delete_file', { path: p }], // last: on a link it removes the link
  ] as const;

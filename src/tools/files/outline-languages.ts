import type { Node } from 'web-tree-sitter';
import type { GrammarId } from './outline-entry.ts';

/**
 * What a parsed outline lists, per grammar, by tree-sitter node type. A node of
 * a `leaf` type is listed whole with its bodies elided; a `container` is listed
 * by its header and its members below it; a `wrap` type (export, decorators,
 * templates) is listed as the declaration it wraps, its own text included;
 * `transparent` nodes (preprocessor conditionals) are walked through. Every
 * other node — statements, comments, ERROR — is not a declaration and is not
 * listed. One table serves every depth: a member type only occurs in a body.
 */
export interface OutlineRules {
  readonly leaf: ReadonlySet<string>;
  /** Container type → the field holding its members. */
  readonly container: Readonly<Record<string, string>>;
  /**
   * Wrapper type → the declaration inside it, `'self'` when the wrapper is itself
   * the declaration (`export { a }`, `source lib.sh`), or null when it holds none.
   */
  readonly wrap: Readonly<Record<string, (n: Node) => Node | 'self' | null>>;
  /** Type → the child type where its listing stops, the rest shown as `{ … }` (a macro's rules). */
  readonly cut?: Readonly<Record<string, string>>;
  readonly transparent: ReadonlySet<string>;
  /** Statement bodies, shown as `{ … }` (or `…` where a body has no braces). */
  readonly bodies: ReadonlySet<string>;
  /** Declarator type → its value field: a value still spanning lines once bodies are elided is shown as `…`. */
  readonly values: Readonly<Record<string, string>>;
}

export interface ParsedLanguage {
  readonly language: string;
  readonly grammar: GrammarId;
  readonly rules: OutlineRules;
  /** Said with every outline of this extension (a grammar used outside its language). */
  readonly note?: string;
  /** Parsed with instead when this grammar finds syntax errors and the alternative finds none. */
  readonly alternative?: ParsedLanguage;
}

const set = (...types: string[]) => new Set(types);
const field = (name: string) => (n: Node) => n.childForFieldName(name);
const namedChild =
  (...types: string[]) =>
  (n: Node) =>
    n.namedChildren.find((c) => c !== null && types.includes(c.type)) ?? null;

const JS_RULES: OutlineRules = {
  leaf: set(
    'import_statement',
    'lexical_declaration',
    'variable_declaration',
    'function_declaration',
    'generator_function_declaration',
    'method_definition',
    'field_definition',
    // TypeScript
    'public_field_definition',
    'method_signature',
    'abstract_method_signature',
    'property_signature',
    'index_signature',
    'function_signature',
    'type_alias_declaration',
    'interface_declaration',
    'enum_declaration',
    'import_alias',
  ),
  container: {
    class_declaration: 'body',
    abstract_class_declaration: 'body',
    internal_module: 'body',
    module: 'body',
  },
  wrap: {
    export_statement: (n) => n.childForFieldName('declaration') ?? 'self',
    ambient_declaration: namedChild(
      'function_signature',
      'lexical_declaration',
      'variable_declaration',
      'class_declaration',
      'module',
      'internal_module',
      'interface_declaration',
      'type_alias_declaration',
      'enum_declaration',
    ),
    // A namespace, or a CommonJS export (`module.exports = …`, `exports.name = …`).
    expression_statement: (n) => namedChild('internal_module')(n) ?? (/^(module\.)?exports\b/.test(n.text) ? 'self' : null),
  },
  transparent: set(),
  bodies: set('statement_block', 'class_body'),
  values: { variable_declarator: 'value', public_field_definition: 'value', field_definition: 'value' },
};

const GO_RULES: OutlineRules = {
  leaf: set(
    'package_clause',
    'import_declaration',
    'const_declaration',
    'var_declaration',
    'type_declaration',
    'function_declaration',
    'method_declaration',
  ),
  container: {},
  wrap: {},
  transparent: set(),
  bodies: set('block'),
  values: { const_spec: 'value', var_spec: 'value' },
};

const PYTHON_RULES: OutlineRules = {
  leaf: set(
    'import_statement',
    'import_from_statement',
    'future_import_statement',
    'function_definition',
    'assignment',
    'type_alias_statement',
  ),
  container: { class_definition: 'body' },
  wrap: {
    decorated_definition: field('definition'),
    expression_statement: namedChild('assignment'),
  },
  transparent: set(),
  bodies: set('block'),
  values: { assignment: 'right' },
};

const RUST_RULES: OutlineRules = {
  leaf: set(
    'use_declaration',
    'extern_crate_declaration',
    'const_item',
    'static_item',
    'type_item',
    'struct_item',
    'enum_item',
    'union_item',
    'function_item',
    'function_signature_item',
    'associated_type',
    'macro_definition',
  ),
  container: { mod_item: 'body', impl_item: 'body', trait_item: 'body', foreign_mod_item: 'body' },
  wrap: {},
  transparent: set(),
  bodies: set('block'),
  values: { const_item: 'value', static_item: 'value' },
  cut: { macro_definition: 'macro_rule' },
};

const JAVA_RULES: OutlineRules = {
  leaf: set(
    'package_declaration',
    'import_declaration',
    'field_declaration',
    'constant_declaration',
    'method_declaration',
    'constructor_declaration',
    'compact_constructor_declaration',
    'annotation_type_element_declaration',
    'enum_constant',
  ),
  container: {
    class_declaration: 'body',
    interface_declaration: 'body',
    enum_declaration: 'body',
    record_declaration: 'body',
    annotation_type_declaration: 'body',
  },
  wrap: {},
  // An enum's members follow its constants, inside enum_body_declarations.
  transparent: set('enum_body_declarations'),
  bodies: set('block', 'constructor_body'),
  values: { variable_declarator: 'value' },
};

const BASH_RULES: OutlineRules = {
  leaf: set('function_definition', 'variable_assignment', 'declaration_command'),
  container: {},
  wrap: {
    // `source lib.sh` / `. lib.sh` is the shell's import.
    command: (n) => (['source', '.'].includes(n.childForFieldName('name')?.text ?? '') ? 'self' : null),
  },
  transparent: set(),
  bodies: set('compound_statement', 'subshell'),
  values: { variable_assignment: 'value' },
};

const CPP_RULES: OutlineRules = {
  leaf: set(
    'preproc_include',
    'preproc_def',
    'preproc_function_def',
    'using_declaration',
    'alias_declaration',
    'type_definition',
    'declaration',
    'field_declaration',
    'function_definition',
    'access_specifier',
    'enum_specifier',
    'concept_definition',
  ),
  container: {
    namespace_definition: 'body',
    linkage_specification: 'body',
    class_specifier: 'body',
    struct_specifier: 'body',
    union_specifier: 'body',
  },
  wrap: {
    template_declaration: namedChild(
      'function_definition',
      'declaration',
      'class_specifier',
      'struct_specifier',
      'alias_declaration',
      'concept_definition',
    ),
  },
  transparent: set('preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif'),
  bodies: set('compound_statement'),
  values: { init_declarator: 'value' },
};

// C with its own grammar: unlike C++, it reads a K&R definition as one function and
// `class` or `new` as plain identifiers.
const C_RULES: OutlineRules = {
  leaf: set(
    'preproc_include',
    'preproc_def',
    'preproc_function_def',
    'type_definition',
    'declaration',
    'field_declaration',
    'function_definition',
    'enum_specifier',
  ),
  container: { struct_specifier: 'body', union_specifier: 'body' },
  wrap: {},
  transparent: set('preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef'),
  bodies: set('compound_statement'),
  values: { init_declarator: 'value' },
};

const C_LANGUAGE: ParsedLanguage = { language: 'C', grammar: 'c', rules: C_RULES };
const CPP_LANGUAGE: ParsedLanguage = { language: 'C++', grammar: 'cpp', rules: CPP_RULES };

/** Extension → the grammar that parses it. */
export const PARSED: Readonly<Record<string, ParsedLanguage>> = {
  '.go': { language: 'Go', grammar: 'go', rules: GO_RULES },
  '.ts': { language: 'TypeScript', grammar: 'typescript', rules: JS_RULES },
  '.mts': { language: 'TypeScript', grammar: 'typescript', rules: JS_RULES },
  '.cts': { language: 'TypeScript', grammar: 'typescript', rules: JS_RULES },
  '.tsx': { language: 'TSX', grammar: 'tsx', rules: JS_RULES },
  '.js': { language: 'JavaScript', grammar: 'javascript', rules: JS_RULES },
  '.mjs': { language: 'JavaScript', grammar: 'javascript', rules: JS_RULES },
  '.cjs': { language: 'JavaScript', grammar: 'javascript', rules: JS_RULES },
  '.jsx': { language: 'JavaScript', grammar: 'javascript', rules: JS_RULES },
  '.py': { language: 'Python', grammar: 'python', rules: PYTHON_RULES },
  '.pyi': { language: 'Python', grammar: 'python', rules: PYTHON_RULES },
  '.rs': { language: 'Rust', grammar: 'rust', rules: RUST_RULES },
  '.java': { language: 'Java', grammar: 'java', rules: JAVA_RULES },
  '.sh': { language: 'Bash', grammar: 'bash', rules: BASH_RULES },
  '.bash': { language: 'Bash', grammar: 'bash', rules: BASH_RULES },
  '.cpp': CPP_LANGUAGE,
  '.cc': CPP_LANGUAGE,
  '.cxx': CPP_LANGUAGE,
  '.hpp': CPP_LANGUAGE,
  '.hh': CPP_LANGUAGE,
  '.hxx': CPP_LANGUAGE,
  // A header's language is not in its name: C first (the stricter reading of what
  // both languages share), C++ when C cannot parse it cleanly.
  '.h': {
    ...C_LANGUAGE,
    alternative: CPP_LANGUAGE,
    note: 'A .h file is outlined as C when it parses as C, else as C++ (the language field says which).',
  },
  '.c': C_LANGUAGE,
};

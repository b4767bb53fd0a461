#!/usr/bin/env python3
"""core-agent's container-side provisioner for Scion (a container-script harness).

Used when config.yaml says `provisioner.type: container-script`. Scion then stages
this script, config.yaml and manifest.json under $HOME/.scion/harness/, with the
template's system prompt and agent instructions as inputs/system-prompt.md and
inputs/instructions.md, and in the container's pre-start lifecycle hook runs
`sciontool harness provision --manifest ...`, which runs this script as
provisioner.command says (a minimal environment: HOME, PATH, LANG, TZ and
SCION_*, never the API keys).

What it writes:

  ~/.config/core-agent/AGENTS.md   the system prompt (unless system_prompt_mode is
                                   none) and the instructions: core-agent puts the
                                   file in its system prompt, before the workspace's
                                   AGENTS.md. The same file, in the same form, that
                                   Scion writes itself for `type: generic`.
  outputs/env.json                 {}: core-agent reads its keys from the environment
                                   Scion projects into the container.
  outputs/resolved-auth.json       which credentials were staged (names only).

The MCP servers and the hooks are not written here: they are files of the
harness-config's home/ (~/.config/core-agent/config.yaml and scion-recipe.yaml),
which Scion copies into the agent's home for every provisioner type.

Stdlib only: it runs on any image with python3 (config.yaml's
required_image_tools). Exit 0 done, 1 failed (sciontool surfaces stderr), 2
unsupported command.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

EXIT_OK, EXIT_ERROR, EXIT_UNSUPPORTED = 0, 1, 2

# Credentials core-agent's providers read, by the auth method Scion names.
API_KEYS = ["GOOGLE_API_KEY", "GEMINI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"]


def expand(path: str) -> str:
    """Manifest paths may be written as $HOME/...: expand them here, in the container."""
    return os.path.expanduser(os.path.expandvars(path))


def read_text(path: str) -> str:
    try:
        with open(path, "r", encoding="utf-8") as f:
            return f.read().strip()
    except FileNotFoundError:
        return ""


def write_atomically(path: str, text: str) -> None:
    """core-agent (or sciontool's validation) never reads half a file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_json(path: str, payload: Any) -> None:
    write_atomically(path, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def agents_md(bundle: str, manifest: dict[str, Any]) -> str:
    """What Scion's generic harness writes for prepend_to_instructions: the system prompt, a rule, the instructions."""
    inputs_dir = os.path.join(bundle, "inputs")
    # The staging contract's fixed paths: the manifest's inputs can be stale on a resume.
    system_prompt = read_text(os.path.join(inputs_dir, "system-prompt.md"))
    instructions = read_text(os.path.join(inputs_dir, "instructions.md"))
    mode = (manifest.get("harness_config") or {}).get("system_prompt_mode") or "prepend_to_instructions"
    if mode == "none" or not system_prompt:
        return f"{instructions}\n" if instructions else ""
    return f"# System Prompt\n\n{system_prompt}\n\n---\n\n{instructions}\n"


def resolved_auth(bundle: str) -> dict[str, Any]:
    try:
        with open(os.path.join(bundle, "inputs", "auth-candidates.json"), "r", encoding="utf-8") as f:
            candidates = json.load(f) or {}
    except (OSError, json.JSONDecodeError):
        candidates = {}
    names = [n for n in candidates.get("env_vars") or [] if isinstance(n, str)]
    keys = [n for n in API_KEYS if n in names]
    if keys:
        method = "api-key"
    elif "GOOGLE_CLOUD_PROJECT" in names:
        method = "vertex-ai"
    else:
        # Not a failure here: a local OpenAI-compatible server needs no key, and
        # core-agent names the missing variable itself when a model needs one.
        method = "none"
    return {"schema_version": 1, "harness": "core-agent", "method": method, "env_vars": keys}


def provision(manifest: dict[str, Any]) -> int:
    home = os.environ.get("HOME") or os.path.expanduser("~")
    bundle = expand(manifest.get("harness_bundle_dir") or "$HOME/.scion/harness")
    outputs = manifest.get("outputs") or {}
    out_dir = os.path.join(bundle, "outputs")
    config_dir = (manifest.get("harness_config") or {}).get("config_dir") or ".config/core-agent"
    target = os.path.join(home, config_dir, "AGENTS.md")
    text = agents_md(bundle, manifest)
    try:
        if text:
            write_atomically(target, text)
        write_json(expand(outputs.get("env") or os.path.join(out_dir, "env.json")), {})
        auth = resolved_auth(bundle)
        write_json(expand(outputs.get("resolved_auth") or os.path.join(out_dir, "resolved-auth.json")), auth)
    except OSError as exc:
        print(f"core-agent provision: cannot write the outputs: {exc}", file=sys.stderr)
        return EXIT_ERROR
    print(f"core-agent provision: {target}: {len(text)} characters; auth {auth['method']}", file=sys.stderr)
    return EXIT_OK


def main() -> int:
    parser = argparse.ArgumentParser(description="core-agent's container-side provisioner for Scion")
    parser.add_argument("--manifest", default=None, help="the staged manifest.json (default $HOME/.scion/harness/manifest.json)")
    args = parser.parse_args()
    path = args.manifest or os.path.join(os.environ.get("HOME") or os.path.expanduser("~"), ".scion", "harness", "manifest.json")
    try:
        with open(path, "r", encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"core-agent provision: cannot read the manifest {path}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if not isinstance(manifest, dict):
        print(f"core-agent provision: the manifest {path} is not a JSON object", file=sys.stderr)
        return EXIT_ERROR
    command = str(manifest.get("command") or "provision")
    if command != "provision":
        print(f"core-agent provision: unsupported command {command!r}", file=sys.stderr)
        return EXIT_UNSUPPORTED
    return provision(manifest)


if __name__ == "__main__":
    sys.exit(main())

"""Says which parts of the results were measured before a later commit changed
the code they measure: each part records its commit (machine.commit), each
part's code is listed below, and `git log COMMIT..HEAD -- PATHS` decides.

Without the history to decide (no git, a shallow clone, a commit this clone
lacks) it says why and leaves that part unchecked.

Standard library only: it runs in CI.
"""
import subprocess

# A commit that changes only prose (a backend's README) changes no figure.
DOCS_ONLY = ":(exclude)*.md"
# Code every GPU timing goes through, whichever backend it times.
ABI = ["api/", "plugins/common/"]
# What each kind of part runs beside the backends it names.
PART_CODE = {
    "epoch": ["host/nn/", "host/cli/bench_command.cpp", "tests/gpu/torch_reference.py"],
    "torch-max": ["tests/gpu/torch_reference.py"],
    "pipeline": ["host/"], "pipeline-cpu": ["host/", "plugins/cpu/"], "ingredients": ["host/"], "models": ["host/"], "search": ["host/"],
    "conformance": ["tests/conformance/", "tests/reference/"],
    "ddp": ["host/", "tests/gpu/torch_ddp_reference.py"],
    "kernels": ["host/nn/", "tests/gpu/kernel_profile.py"],
    # CI builds and tests everything.
    "ci": ["api/", "host/", "plugins/", "tests/", ".ci/", "packaging/", "cmake/", "CMakeLists.txt"],
}


def backends_of(part):
    """The backends a part's rows time, from the records that name one."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("backend"), str) and node["backend"] not in found:
                found.append(node["backend"])
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)
    walk(part)
    return found


def code_paths(name, part):
    """The folders and files whose change makes the part's tables stale."""
    kind = name.rstrip("-0123456789") if name.startswith(("epoch", "ingredients")) else name
    own = PART_CODE.get(kind, ["host/"])
    backends = [f"plugins/{b}/" for b in backends_of(part)]
    return backends + (ABI if backends else []) + own


def git(root, *args):
    try:
        done = subprocess.run(["git", "-C", root] + list(args), capture_output=True, text=True)
    except OSError as e:
        return None, str(e)
    if done.returncode != 0:
        return None, done.stderr.strip() or f"git {' '.join(args)} failed"
    return done.stdout, None


def history_problem(root):
    """Why this checkout cannot say what changed after a commit, or None."""
    out, error = git(root, "rev-parse", "--is-inside-work-tree")
    if out is None:
        return f"not a git checkout ({error})"
    return None


def stale_parts(results, root):
    """(stale, skipped): for each stale part, (name, commit, [(path, commits)]);
    for each part that could not be checked, (name, reason)."""
    stale, skipped = [], []
    problem = history_problem(root)
    shallow, _ = git(root, "rev-parse", "--is-shallow-repository") if not problem else (None, None)
    for name, part in sorted(results.get("parts", {}).items()):
        if part.get("status", "measured") != "measured":
            continue
        commit = part.get("machine", {}).get("commit")
        if problem:
            skipped.append((name, problem))
            continue
        if not commit:
            skipped.append((name, "no commit recorded"))
            continue
        if git(root, "rev-parse", "--verify", "--quiet", commit + "^{commit}")[0] is None:
            why = "a shallow clone" if (shallow or "").strip() == "true" else "its history"
            skipped.append((name, f"commit {commit} is not in {why}"))
            continue
        changed = []
        for path in code_paths(name, part):
            out, _ = git(root, "rev-list", "--count", f"{commit}..HEAD", "--", path, DOCS_ONLY)
            if out and int(out) > 0:
                changed.append((path, int(out)))
        if changed:
            stale.append((name, commit, changed))
    return stale, skipped


def report(results, root):
    """Lines that say which parts are stale and which were not checked, and
    whether any is stale."""
    stale, skipped = stale_parts(results, root)
    lines = [f"stale: part `{name}` was measured at {commit}; later commits change "
             + ", ".join(f"{path} ({n})" for path, n in changed)
             for name, commit, changed in stale]
    lines += [f"staleness of part `{name}` not checked: {reason}" for name, reason in skipped]
    return lines, bool(stale)

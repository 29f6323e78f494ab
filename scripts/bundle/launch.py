"""Starts the wavehost bundled beside this file: `python launch.py serve [--stdio]`.

The IDE shells (VS Code, JetBrains) run this with the user's interpreter. It picks the lib folders
built for that CPython version (bundle.json, written by scripts/bundle-server), puts them on
sys.path (in this process only, so hooks and tools the server starts never see them) and runs
`wavehost`'s command line. When the interpreter cannot run the bundle it prints one sentence that
says what to do, and exits with status 3 (stderr, nothing on stdout: stdout is the LSP channel).

Stdlib only, ASCII, and syntax that old Pythons (2.7 included) parse, so they reach the sentence.
"""

import io
import json
import os
import platform
import sys
import sysconfig

UNUSABLE = 3  # the exit status that means "this interpreter cannot run the bundle"
HERE = os.path.dirname(os.path.abspath(__file__))
FIX = (
    "choose a CPython {supported} as the interpreter in the wavehost settings, or install wavehost"
    " with pip and set the server command to it"
)


def problem(manifest, version, implementation, machine):
    """Why this interpreter cannot run the bundle, as one sentence; None when it can."""
    supported = sorted(manifest["pythons"], key=lambda v: tuple(map(int, v.split("."))))
    span = "%s to %s" % (supported[0], supported[-1])
    fix = FIX.format(supported=span)
    here = "%s %d.%d" % (implementation, version[0], version[1])
    if implementation != "CPython":
        return "wavehost needs CPython %s, but %s is %s: %s." % (span, sys.executable, here, fix)
    if "%d.%d" % version[:2] not in manifest["pythons"]:
        older = tuple(version[:2]) < tuple(map(int, supported[0].split(".")))
        why = "too old" if older else "newer than this bundle supports"
        return "wavehost needs CPython %s; %s is %s, %s: %s." % (
            span,
            sys.executable,
            here,
            why,
            fix,
        )
    if machine != manifest["platform"]:
        return "This wavehost bundle is for %s, but %s runs on %s: %s." % (
            manifest["platform"],
            sys.executable,
            machine,
            fix,
        )
    return None


def machine_name():
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(
        platform.machine().lower(), platform.machine().lower()
    )
    return "%s-%s" % (sysconfig.get_platform().split("-")[0], machine)


def main(argv):
    with io.open(os.path.join(HERE, "bundle.json"), encoding="utf-8") as file:
        manifest = json.load(file)
    version = tuple(sys.version_info[:2])
    sentence = problem(manifest, version, platform.python_implementation(), machine_name())
    if sentence is None:
        folders = manifest["pythons"]["%d.%d" % version]
        sys.path[:0] = [os.path.join(HERE, folder) for folder in folders]
        # Compiled bytecode is kept beside the bundled sources (per CPython version, written on
        # the first start when the folder is writable), even under PYTHONDONTWRITEBYTECODE: a
        # start without it compiles lsprotocol & co. again, seconds on a slow machine. In this
        # process only: the environment that hooks and tools inherit is left as it is.
        sys.dont_write_bytecode = False
        try:
            # The compiled parts: loading them now turns a bad match into the sentence below
            # instead of an error on the first request (they are needed by then anyway).
            import pydantic_core._pydantic_core  # noqa: F401, I001
            from wavehost.cli import main as wavehost_main
        except ImportError as err:
            sentence = "The wavehost bundled in %s cannot load in %s (%s): %s." % (
                HERE,
                sys.executable,
                err,
                FIX.format(supported="built for this machine"),
            )
    if sentence is not None:
        sys.stderr.write(sentence + "\n")
        return UNUSABLE
    return wavehost_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

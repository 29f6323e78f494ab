"""Layers only import downward (DESIGN: hooks → settings → session → protocol → lsp / web → cli),
and no package imports itself in a circle. Read from the source: every import counts, also the
lazy ones inside functions and those under TYPE_CHECKING."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "wavehost"
LAYERS = {  # lower number: lower layer
    "plumbing": 0, "paths": 0, "wire": 0, "language": 0,
    "hooks": 1,
    "settings": 2,
    "session": 3,
    "protocol": 4,
    "lsp": 5, "web": 5,
    "cli": 6, "__main__": 6,
}  # fmt: skip


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("wavehost.")}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("wavehost"):
                found.add(node.module or "")
                found |= {f"{node.module}.{a.name}" for a in node.names}
        graph[module] = found
    return graph


def _layer(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def test_every_import_points_down_the_layers() -> None:
    upward = []
    for module, imported in _imports().items():
        if module == "wavehost":
            continue
        for target in imported:
            if target == "wavehost" or _layer(target) not in LAYERS:
                continue
            mine, theirs = LAYERS[_layer(module)], LAYERS[_layer(target)]
            sibling = {_layer(module), _layer(target)} == {"lsp", "web"}  # neither uses the other
            if theirs > mine or sibling:
                upward.append(f"{module} imports {target}")
    assert upward == []


def test_no_module_imports_itself_round_a_circle() -> None:
    graph = _imports()
    modules = set(graph)
    edges = {m: {t for t in targets if t in modules and t != m} for m, targets in graph.items()}
    circles = []

    def visit(module: str, path: list[str]) -> None:
        for target in sorted(edges[module]):
            if target in path:
                circles.append(" → ".join([*path[path.index(target) :], target]))
            elif len(path) < 12:
                visit(target, [*path, target])

    for module in sorted(modules):
        visit(module, [module])
    assert circles == []

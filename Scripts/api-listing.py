#!/usr/bin/env python3
"""Turns a module's symbol graphs (swift-symbolgraph-extract's output) into API listings, for
Scripts/check-api. Python 3 standard library only.

    Scripts/api-listing.py listing GRAPHS MODULE
        One line per public symbol and per conformance, sorted:
            kind path | declaration
        The path of a symbol on another module's type starts with that module
        (`method Swift.Collection.zip() | ...`). Declarations drop parameter names (callers
        see only the labels), doc comments, source locations and precise identifiers, and
        carry the constraints of the extension they are declared in as a `where` clause, so the
        listing changes only when a caller could notice.

    Scripts/api-listing.py offenders GRAPHS MODULE ALLOWED
        Prints each public name of MODULE that the allow-list ALLOWED does not allow, with the rule
        it breaks, and exits 1 if there is any:
          (a) a member, nested type or conformance added to a type of another module (Swift,
              Foundation, Dispatch, ...);
          (b) a top-level name of the module, or a name directly inside its namespaces
              `Publishers` and `Subscribers` (Combine's namespaces for its publishers and
              subscribers: `Publishers.Map` is as global a name as `Just`).
        ALLOWED (API/Streams-allowed.txt) has one entry a line; `#` starts a comment.
          `Path` allows the symbol at Path, its overloads (an entry without an argument list
              allows every `Path(...)`) and all its members. An entry must name at least the
              unit a rule checks: `Publishers` allows the namespace, not `Publishers.Map`, and
              `Swift.Collection` allows no member of Collection.
          `Type: Protocol` allows Type's conformance to Protocol and the members of Type that
              implement Protocol's requirements, with their members (`Dispatch.DispatchQueue:
              Scheduler` allows `DispatchQueue.now` and `DispatchQueue.SchedulerTimeType`).

GRAPHS is the folder holding MODULE.symbols.json and its extension graphs MODULE@Other.symbols.json
(run swift-symbolgraph-extract with -emit-extension-block-symbols, so that conformances added to
other modules' types keep their type's name).
"""

import json
import os
import re
import sys

# Linux's Foundation is split into modules that Apple's platforms do not have; a listing names
# Foundation's types as a user writes them, and reads the same on every platform.
MODULE_ALIASES = {
    "FoundationEssentials": "Foundation",
    "FoundationInternationalization": "Foundation",
    "FoundationNetworking": "Foundation",
}

# Conformances every type has unless it opts out (the declaration then says `~Copyable`), or that
# follow from another listed one (SendableMetatype from Sendable): noise in a listing.
IMPLIED_PROTOCOLS = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype"}

# Combine's namespaces: each name inside them is checked as a top-level name is.
NAMESPACES = {"Publishers", "Subscribers"}


def module_alias(name):
    return MODULE_ALIASES.get(name, name)


def qualified_alias(name):
    module, dot, rest = name.partition(".")
    return module_alias(module) + dot + rest


def join(path):
    return ".".join(path)


def format_constraints(constraints):
    parts = []
    for c in constraints:
        relation = "==" if c.get("kind") == "sameType" else ":"
        parts.append(f"{c['lhs']} {relation} {c['rhs']}")
    return ", ".join(parts)


def format_version(version):
    text = str(version.get("major", 0))
    if "minor" in version or "patch" in version:
        text += f".{version.get('minor', 0)}"
    if "patch" in version:
        text += f".{version['patch']}"
    return text


def format_availability(entries):
    attributes = []
    for a in entries:
        parts = [a.get("domain", "*")]
        if a.get("isUnconditionallyDeprecated"):
            parts.append("deprecated")
        if a.get("isUnconditionallyUnavailable"):
            parts.append("unavailable")
        for key in ("introduced", "deprecated", "obsoleted"):
            if key in a:
                parts.append(f"{key}: {format_version(a[key])}")
        for key in ("renamed", "message"):
            if key in a:
                parts.append(f"{key}: {json.dumps(a[key])}")
        attributes.append(f"@available({', '.join(parts)})")
    return " ".join(sorted(attributes))


class Graphs:
    """A module's symbols from its main and extension symbol graphs."""

    def __init__(self, directory, module):
        self.module = module
        main = f"{module}.symbols.json"
        names = sorted(os.listdir(directory))
        if main not in names:
            sys.exit(f"api-listing: no {main} in {directory}")
        # id -> (symbol, path as a tuple); the path of a symbol from an extension graph
        # MODULE@Other starts with Other, the module of the type it extends. self.external holds
        # the ids of those symbols.
        self.symbols = {}
        self.external = set()
        self.relationships = []
        for name in names:
            if name == main:
                extended = None
            elif name.startswith(module + "@") and name.endswith(".symbols.json"):
                extended = module_alias(name[len(module) + 1 : -len(".symbols.json")])
            else:
                continue
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                data = json.load(f)
            for s in data["symbols"]:
                path = tuple(s["pathComponents"])
                if extended is not None:
                    path = (extended,) + path
                ident = s["identifier"]["precise"]
                if ident not in self.symbols:
                    self.symbols[ident] = (s, path)
                    if extended is not None:
                        self.external.add(ident)
            self.relationships.extend(data["relationships"])
        # Names of other modules' symbols that relationships point to.
        self.fallbacks = {}
        for r in self.relationships:
            if "targetFallback" in r:
                self.fallbacks[r["target"]] = qualified_alias(r["targetFallback"])
        self.requirement = {}  # id -> "requirement" / "optional requirement"
        self.origin = {}  # id -> the requirement a member implements ("Scheduler.now")
        for r in self.relationships:
            if r["kind"] == "requirementOf":
                self.requirement[r["source"]] = "requirement"
            elif r["kind"] == "optionalRequirementOf":
                self.requirement[r["source"]] = "optional requirement"
            elif r["kind"] == "memberOf" and "sourceOrigin" in r:
                self.origin[r["source"]] = r["sourceOrigin"].get("displayName", "")

    def is_block(self, ident):
        s, _ = self.symbols[ident]
        return s["kind"]["identifier"] == "swift.extension"

    def declarations(self):
        """(id, symbol, path) for every symbol but extension blocks."""
        for ident, (s, path) in self.symbols.items():
            if s["kind"]["identifier"] != "swift.extension":
                yield ident, s, path

    def qualified_name(self, ident):
        if ident in self.external:
            return join(self.symbols[ident][1])
        if ident in self.symbols:
            return join((self.module,) + self.symbols[ident][1])
        return self.fallbacks.get(ident, ident)

    def conformances(self):
        """(source id, source path, protocol's qualified name, constraints, relationship kind),
        deduplicated."""
        seen = set()
        for r in self.relationships:
            if r["kind"] not in ("conformsTo", "inheritsFrom"):
                continue
            if r["source"] not in self.symbols:
                continue
            target = self.qualified_name(r["target"])
            if target in IMPLIED_PROTOCOLS:
                continue
            source, path = self.symbols[r["source"]]
            constraints = r.get("swiftConstraints")
            if constraints is None and self.is_block(r["source"]):
                constraints = source.get("swiftExtension", {}).get("constraints")
            item = (path, target, format_constraints(constraints or []), r["kind"])
            if item not in seen:
                seen.add(item)
                yield (r["source"],) + item


def declaration(s, requirement):
    fragments = s.get("declarationFragments", [])
    out = []
    for i, f in enumerate(fragments):
        # Parameter names are the implementation's: `to keyPath: T` reads `to: T`, and an
        # unlabelled operator's or subscript's `lhs: T` reads `_: T`.
        if f["kind"] == "internalParam":
            if (
                i >= 2
                and fragments[i - 1]["kind"] == "text"
                and fragments[i - 1]["spelling"] == " "
                and fragments[i - 2]["kind"] == "externalParam"
            ):
                out.pop()
            else:
                out.append("_")
            continue
        out.append(f["spelling"])
    text = re.sub(r"\s+", " ", "".join(out)).strip()
    extension = format_constraints(s.get("swiftExtension", {}).get("constraints", []))
    if extension:
        text += (", " if " where " in text else " where ") + extension
    if s.get("availability"):
        text = format_availability(s["availability"]) + " " + text
    if requirement:
        text += f" ({requirement})"
    return text


def listing(graphs):
    rows = []
    for ident, s, path in graphs.declarations():
        kind = s["kind"]["identifier"].removeprefix("swift.")
        line = f"{kind} {join(path)} | {declaration(s, graphs.requirement.get(ident))}"
        rows.append((path, 0, line))
    for _, path, target, constraints, relation in graphs.conformances():
        kind = "conformance" if relation == "conformsTo" else "superclass"
        where = f" where {constraints}" if constraints else ""
        rows.append((path, 1, f"{kind} {join(path)} | {target}{where}"))
    rows.sort()
    header = (
        f"# The public API of {graphs.module}: Scripts/check-api compares it with the build and "
        "rewrites it with --update.\n# One line per symbol or conformance: kind path | declaration\n"
    )
    return header + "".join(line + "\n" for _, _, line in rows)


def read_allowed(file, module):
    paths, conformances = [], set()
    with open(file, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.fullmatch(r"([\w.]+)\s*:\s*([\w.]+)", line)
            if m:
                conformances.add((m.group(1), bare_protocol(m.group(2), module)))
            elif re.fullmatch(r"\S+", line):
                paths.append(line)
            else:
                sys.exit(f"api-listing: {file}:{number}: not an entry: {raw.rstrip()}")
    return paths, conformances


def bare_protocol(name, module):
    return name.removeprefix(module + ".")


def under(path, entry):
    """Whether path is entry, one of entry's overloads, or a member of it."""
    return path == entry or path.startswith(entry + ".") or path.startswith(entry + "(")


def offenders(graphs, allowed_file):
    entries, conformance_entries = read_allowed(allowed_file, graphs.module)
    blocks = sorted(
        (path for ident, (s, path) in graphs.symbols.items() if s["kind"]["identifier"] == "swift.extension"),
        key=len,
        reverse=True,
    )

    def extended_type(path):
        """The other module's type that a symbol from an extension graph is on."""
        for block in blocks:
            if len(block) < len(path) and path[: len(block)] == block:
                return block
        return path[:2]

    # Members that implement an allowed conformance's requirements: they and their members pass.
    witnesses = []
    for ident, s, path in graphs.declarations():
        origin = graphs.origin.get(ident)
        if origin and len(path) > 1:
            owner, protocol = join(path[:-1]), origin.split(".", 1)[0]
            if any(t == owner and p.rsplit(".", 1)[-1] == protocol for t, p in conformance_entries):
                witnesses.append(join(path))

    def allowed(full, unit):
        for entry in entries:
            if under(full, entry) and not unit.startswith(entry + "."):
                return True
        return any(under(full, w) for w in witnesses)

    found = {}  # (rule, unit) -> [(full path, kind)]
    for ident, s, path in graphs.declarations():
        kind = s["kind"]["identifier"].removeprefix("swift.")
        if ident not in graphs.external:
            if len(path) == 1 or path[0] in NAMESPACES:
                rule, unit = "b", join(path[:2] if path[0] in NAMESPACES else path[:1])
            else:
                continue
        else:
            rule, unit = "a", join(path[: len(extended_type(path)) + 1])
        full = join(path)
        if not allowed(full, unit):
            found.setdefault((rule, unit), []).append((full, kind))
    for ident, path, target, _, _ in graphs.conformances():
        if ident not in graphs.external:
            continue
        protocol = bare_protocol(target, graphs.module)
        if graphs.is_block(ident):
            # Another module's type conforms: a name of its own.
            unit = f"{join(path)}: {protocol}"
            if (join(path), protocol) not in conformance_entries:
                found.setdefault(("a", unit), []).append((unit, "conformance"))
        else:
            # A type of this module nested in another module's type: part of that type's unit.
            unit = join(path[: len(extended_type(path)) + 1])
            if not allowed(join(path), unit):
                found.setdefault(("a", unit), []).append((f"{join(path)}: {protocol}", "conformance"))

    if not found:
        return 0
    rules = {
        "a": "(a) adds to a type of another module",
        "b": "(b) is a top-level name, or a name in Publishers or Subscribers",
    }
    print(f"{graphs.module}: {len(found)} public name(s) that {allowed_file} does not allow:")
    for rule in ("a", "b"):
        units = sorted(unit for r, unit in found if r == rule)
        if not units:
            continue
        print(f"  {rules[rule]}:")
        for unit in units:
            symbols = found[(rule, unit)]
            kinds = sorted({k for full, k in symbols if full == unit})
            if kinds:
                members = len(symbols) - sum(1 for full, _ in symbols if full == unit)
                more = f", and {members} member(s)" if members else ""
                print(f"    {unit} [{', '.join(kinds)}{more}]")
            else:
                for full, k in sorted(symbols):
                    print(f"    {full} [{k}]")
    return 1


def main(argv):
    if len(argv) == 4 and argv[1] == "listing":
        sys.stdout.write(listing(Graphs(argv[2], argv[3])))
        return 0
    if len(argv) == 5 and argv[1] == "offenders":
        return offenders(Graphs(argv[2], argv[3]), argv[4])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""The documentation in docs/ agrees with the code.

* Every rule id that the code, the tests and the training scripts cite (``CR-7``, ``SH-6a``,
  ranges such as ``IR-1..12``, test names such as ``test_cr7_...``, the Deb Kolsov contracts
  ``DK``) is defined in docs/rules.md, once, with its anchor; an id the rules reference defines
  and nothing cites is reported as a warning (a rule with no test is a gap, not a bug).
* The generated variant pages (docs/variants/) are what ``python -m rummy_env.docs`` writes now.
* Every relative link of the Markdown docs leads to a file, and every ``#anchor`` to a heading
  or an ``<a id>`` of its target.
"""

from __future__ import annotations

import pathlib
import re
import warnings

import pytest

import rummy_env

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
#: The families of rule ids (docs/rules.md sections 0-9); DK stands alone (section 5).
PREFIXES = ("C", "CR", "SP", "LV", "MI", "SH", "TP", "PR", "MR", "IR", "GR")
_P = "|".join(sorted(PREFIXES, key=len, reverse=True))
#: ``CR-7``, ``SH-6a``; ``CR-1..13`` and ``GR-2..GR-7`` are ranges.
_CITE = re.compile(rf"\b({_P})-(\d+)([a-z]?)(?:\.\.(?:\1-)?(\d+))?\b")
#: ``test_cr7_...``, ``test_sh6a_...``: the rule a test function pins.
_TEST_NAME = re.compile(rf"\btest_({_P.lower()})(\d+)([a-z]?)_")
_DK = re.compile(r"\bDK\b")
#: A definition in docs/rules.md: a list item opening with its anchor and the bold id.
_DEFINE = re.compile(rf'^\s*- <a id="([a-z0-9-]+)"></a>\*\*((?:{_P})-\d+[a-z]?|DK)\b', re.M)


def _sources() -> list[pathlib.Path]:
    return sorted(p for d in ("rummy_env", "tests", "training")
                  for p in (ROOT / d).rglob("*.py"))


def cited_ids() -> dict[str, set[str]]:
    """Every cited rule id and the files that cite it."""
    out: dict[str, set[str]] = {}
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        ids: set[str] = set()
        for m in _CITE.finditer(text):
            prefix, first, letter, last = m.groups()
            if last is None:
                ids.add(f"{prefix}-{first}{letter}")
            else:
                ids.update(f"{prefix}-{k}" for k in range(int(first), int(last) + 1))
        for m in _TEST_NAME.finditer(text):
            ids.add(f"{m.group(1).upper()}-{m.group(2)}{m.group(3)}")
        if _DK.search(text):
            ids.add("DK")
        for i in ids:
            out.setdefault(i, set()).add(where)
    return out


def defined_ids() -> list[tuple[str, str]]:
    """``(anchor, id)`` of every rule docs/rules.md defines, in order."""
    return [(m.group(1), m.group(2)) for m in _DEFINE.finditer(RULES.read_text(encoding="utf-8"))]


def test_every_cited_rule_id_is_defined() -> None:
    cited = cited_ids()
    assert len(cited) > 80, "the id scan found too little: has the citation style changed?"
    defined = {i for _, i in defined_ids()}
    missing = {i: sorted(cited[i])[:3] for i in sorted(cited) if i not in defined}
    assert not missing, f"rule ids cited but not defined in docs/rules.md: {missing}"


def test_rule_ids_are_defined_once_with_their_anchor() -> None:
    defs = defined_ids()
    ids = [i for _, i in defs]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    for anchor, i in defs:
        assert anchor == i.lower(), f"{i} should be anchored as {i.lower()!r}, not {anchor!r}"


def test_uncited_rule_ids_are_reported() -> None:
    """A rule that no code or test cites has no test pinning it: reported, not failed."""
    cited = cited_ids()
    uncited = [i for _, i in defined_ids() if i not in cited]
    if uncited:
        warnings.warn(f"docs/rules.md defines rule ids that nothing cites: {uncited}",
                      stacklevel=1)


def test_id_scan_reads_every_citation_style() -> None:
    text = "CR-7 and SH-6a; IR-1..3, GR-2..GR-4; def test_mr10_x(); A-2-3 N-1 (DK)"
    found = {f"{p}-{a}{b}" for p, a, b, c in _CITE.findall(text) if not c}
    assert found == {"CR-7", "SH-6a"}
    ranges = [(p, a, c) for p, a, _, c in _CITE.findall(text) if c]
    assert ranges == [("IR", "1", "3"), ("GR", "2", "4")]
    assert _TEST_NAME.findall(text) == [("mr", "10", "")]
    assert _DK.search(text)


def test_variant_pages_are_current() -> None:
    from rummy_env.docs import PAGES, pages, stale_pages

    assert {p.name for p in pages()} == {f"{n}.md" for n in rummy_env.VARIANTS} | {"README.md"}
    assert PAGES.is_dir()
    assert stale_pages() == [], "run: python -m rummy_env.docs"


def _anchors(path: pathlib.Path) -> set[str]:
    """GitHub's anchors of a Markdown file: heading slugs and explicit ``<a id>``."""
    text = path.read_text(encoding="utf-8")
    out = set(re.findall(r'<a id="([^"]+)"', text))
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


_DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md",
         *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("doc", [p for p in _DOCS if p.exists()],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc: pathlib.Path) -> None:
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        if not dest.exists():
            bad.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(target)
    assert not bad, f"{doc.relative_to(ROOT)}: broken links {bad}"


def test_every_rule_field_has_a_row_in_its_class_table() -> None:
    """The variant pages' Arguments tables read each rules class's docstring table: a field
    without a row would be listed with no meaning."""
    from rummy_env.docs import _field_table

    seen: set[type] = set()
    for name in rummy_env.VARIANTS:
        cls = type(rummy_env.make(name).rules)
        if cls in seen:
            continue
        seen.add(cls)
        table = _field_table(cls.__doc__ or "")
        missing = [f for f in cls.option_names() if not table.get(f)]
        assert not missing, f"{cls.__name__}: fields with no row in its docstring table: {missing}"

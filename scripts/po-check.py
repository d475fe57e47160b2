#!/usr/bin/env python3
"""The message catalogs' checks, run by the build before msgfmt.

    scripts/po-check.py pot OUT SOURCE...     the template of the code's messages (xgettext: _() and N_())
    scripts/po-check.py check PO POT GLOSSARY  exit 1, with one line a problem, when PO
        - lacks a message of POT, or holds it fuzzy or untranslated;
        - translates a message whose English holds a glossary term without the term's translation
          (GLOSSARY: "english<TAB>translation" lines, # comments; a name kept as it is, such as
          PyTorch, is its own translation and matches only as it is spelt). Options, paths, keys
          and values in the English (--optimizer, ranking.framework, team=pytorch) are code, not
          terms.
A message of PO that POT no longer has (a stale translation nobody sees) is a warning.
msgfmt --check then checks each translation's format directives and its leading and trailing
newlines against the English.
"""
import os
import re
import subprocess
import sys


def unquote(s):
    s = s.strip()
    if not (s.startswith('"') and s.endswith('"')):
        raise ValueError(f"not a quoted string: {s}")
    body = s[1:-1]
    out, i = [], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_po(path):
    """Entries as dicts: msgctxt, msgid, msgstr (the first form), fuzzy, line."""
    entries, cur, field = [], None, None

    def flush():
        if cur is not None and "msgid" in cur:
            entries.append(cur)

    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            flush()
            cur, field = None, None
            continue
        if line.startswith("#~"):
            continue  # obsolete: msgfmt ignores it
        if cur is None:
            cur = {"msgctxt": None, "msgstr": "", "fuzzy": False, "line": n}
        if line.startswith("#,"):
            cur["fuzzy"] = cur["fuzzy"] or "fuzzy" in line
            continue
        if line.startswith("#"):
            continue
        m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$', line)
        if m:
            key = m.group(1)
            if key.startswith("msgstr["):
                key = "msgstr" if m.group(2) == "0" else None
            field = key
            if field:
                cur[field] = unquote(m.group(3))
            continue
        if line.startswith('"'):
            if field:
                cur[field] = cur.get(field, "") + unquote(line)
            continue
        raise SystemExit(f"{path}:{n}: cannot read: {line}")
    flush()
    return entries


def key(e):
    return (e["msgctxt"], e["msgid"])


def make_pot(out, sources):
    cmd = ["xgettext", "--from-code=UTF-8", "--language=C", "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2",
           "--keyword=adv_twinf:5", "--keyword=ADV_REASONF:3", "--keyword=ADV_TEXTF:4",
           "--keyword=adv_assume:2", "--keyword=adv_warn:2",
           "--keyword=ADV_NOTEF:3", "--keyword=ADV_NOTEF_APPEND:3", "--keyword=adv_twinf_append:5", "--keyword=REMEDY:2", "--keyword=inf_note:2",
           "--add-comments=TRANSLATORS:", "--sort-by-file", "--package-name=fwadvisor", "--no-wrap",
           "--output=" + out + ".tmp"] + sources
    subprocess.run(cmd, check=True)
    os.replace(out + ".tmp", out)


def words_pattern(term, name):
    # Whole words, a plural too, spaces or a hyphen between words (not a line break); a term in any case,
    # a name only as it is spelt (pytorch in --set team=pytorch is a value, not the name).
    parts = [re.escape(w) for w in re.split(r"[\s-]+", term.strip())]
    return re.compile(r"(?<![A-Za-z0-9])" + r"[ -]+".join(parts) + r"(?:s|es)?(?![A-Za-z0-9])",
                      0 if name else re.IGNORECASE)


# Tokens of code in a message: options (--optimizer, -o), paths, keys and values
# (ranking.framework, team=pytorch,jax, jax-distributed.txt, [--json]).
CODE = re.compile(r"(?<!\S)(?:-\S*|\S*[._=/|\[\]$~<>]\S*|\S+,\S+)")


def prose(msgid):
    return CODE.sub(" ", msgid)


def read_glossary(path):
    terms = []
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
            raise SystemExit(f"{path}:{n}: expected 'english<TAB>translation'")
        en, tr = parts[0].strip(), parts[1].strip()
        terms.append((en, tr, words_pattern(en, en == tr), n))
    return terms


def check(po_path, pot_path, glossary_path):
    problems = []
    po = parse_po(po_path)
    pot = parse_po(pot_path)
    glossary = read_glossary(glossary_path)
    have = {key(e): e for e in po if e["msgid"]}
    want = {key(e): e for e in pot if e["msgid"]}
    for k, e in want.items():
        t = have.get(k)
        if t is None:
            problems.append(f"{po_path}: message missing: {e['msgid']!r}")
        elif t["fuzzy"]:
            problems.append(f"{po_path}:{t['line']}: fuzzy: {e['msgid']!r}")
        elif not t["msgstr"]:
            problems.append(f"{po_path}:{t['line']}: untranslated: {e['msgid']!r}")
    for k, t in have.items():
        if k not in want:
            print(f"{po_path}:{t['line']}: warning: the code no longer has this message: {t['msgid']!r}", file=sys.stderr)
    for k, t in have.items():
        if not t["msgstr"] or t["fuzzy"]:
            continue
        for en, zh, pat, n in glossary:
            if pat.search(prose(t["msgid"])) and zh not in t["msgstr"]:
                problems.append(f"{po_path}:{t['line']}: '{en}' is '{zh}' (glossary line {n}): {t['msgid']!r}")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


def main():
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "pot":
        make_pot(args[1], args[2:])
        return 0
    if len(args) == 4 and args[0] == "check":
        return check(args[1], args[2], args[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

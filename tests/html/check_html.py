#!/usr/bin/python3
"""Checks an HTML report against the JSON document it was drawn from.

    check_html.py PAGE.html DOC.json [--outline]

- the page parses as HTML5 without a single parse error (html5lib, strict);
- every <svg> in it is well-formed XML on its own;
- every chart mark that names a number of the document (data-json, a JSON Pointer) shows that
  number: data-value equals the document's value (times data-scale), and within a chart bar
  lengths are proportional to their values;
- nothing in the page can load anything: no script, no external reference of any kind.

Prints one JSON object (marks checked, bytes, charts) and exits 0, or prints what is wrong and
exits 1; exits 77 when html5lib is missing (a skip). With --outline it prints the page's
structure instead (headings, sections, charts, tables, repeated parts collapsed), which the
golden tests compare.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

try:
    import html5lib
except ImportError:
    print(json.dumps({"skip": "python3-html5lib is not installed (scripts/deps.sh installs it)"}))
    sys.exit(77)


def pointer(doc, ptr):
    node = doc
    for part in ptr.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def outline(root):
    """The page's structure as indented lines; siblings with the same structure read once, +."""

    def node(el):
        tag, cls, ident = el.tag, el.get("class", ""), el.get("id", "")
        kids = []
        for child in el:
            kids.extend(node(child))
        if tag in ("h1", "h3"):
            return [(tag, [])]
        if tag == "h2":
            return [("h2 " + "".join(el.itertext()).strip(), [])]
        if tag == "section":
            return [("section#" + ident, kids)]
        if tag == "figure":
            return [("figure." + cls.replace(" ", ".") + ("#" + ident if ident else ""), [])]
        if tag in ("table", "ol", "dl"):
            return [(tag + ("." + cls.replace(" ", ".") if cls else ""), [])]
        if tag in ("details", "ul") or (tag == "div" and cls):
            return [(tag + ("." + cls.replace(" ", ".") if cls else ""), kids)]
        return kids

    def text(items, depth):
        out, last = [], None
        for line, kids in items:
            block = ["  " * depth + line] + text(kids, depth + 1)
            if block == last:
                if not out[-len(block)].endswith(" +"):
                    out[-len(block)] += " +"
                continue
            out.extend(block)
            last = block
        return out

    return "\n".join(text(node(root.find("body")), 0)) + "\n"


def main():
    page_path, doc_path = sys.argv[1], sys.argv[2]
    raw = open(page_path, "rb").read()
    text = raw.decode("utf-8")
    doc = json.load(open(doc_path))
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), strict=True, namespaceHTMLElements=False)
    try:
        root = parser.parse(raw)
    except Exception as e:  # html5lib.html5parser.ParseError
        print("not valid HTML5: %s" % e)
        return 1
    if "--outline" in sys.argv:
        sys.stdout.write(outline(root))
        return 0
    problems = []
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    for i, svg in enumerate(svgs):
        try:
            ET.fromstring(svg)
        except ET.ParseError as e:
            problems.append("svg %d is not well-formed XML: %s" % (i, e))
    for bad in ("<script", "<link", "<img", "<iframe", "<object", "<embed", "@import", "url(http", "src="):
        if bad in text:
            problems.append("the page refers to something outside itself: %s" % bad)
    marks = 0
    for el in root.iter():
        ptr = el.get("data-json")
        if ptr is None:
            continue
        try:
            want = pointer(doc, ptr)
        except (KeyError, IndexError, ValueError):
            problems.append("%s: no such number in the document" % ptr)
            continue
        shown, scale = float(el.get("data-value")), float(el.get("data-scale", "1"))
        if not isinstance(want, (int, float)) or isinstance(want, bool):
            problems.append("%s: the document holds %r, the chart %r" % (ptr, want, shown))
        elif (scale == 1 and shown != want) or abs(shown - want * scale) > 1e-9 * abs(want * scale):
            problems.append("%s: the document says %r, the chart %r" % (ptr, want, shown))
        marks += 1
    # within a chart, bar length over value is one constant (lengths are written to 0.01 px)
    for fig in root.iter("figure"):
        bars = []
        for el in fig.iter():
            if el.get("data-json") and el.get("width") and el.tag.endswith("rect"):
                bars.append((float(el.get("width")), abs(float(el.get("data-value"))), el.get("data-json")))
        if not bars:
            continue
        width, value, _ = max(bars, key=lambda b: b[1])
        per_unit = width / value if value > 0 else 0
        for w, v, ptr in bars:
            if abs(w - v * per_unit) > 0.011 + 0.005 * w:
                problems.append("%s: bar %g px long for %g, the chart's longest %g px for %g" % (ptr, w, v, width, value))
    if problems:
        print("\n".join(problems))
        return 1
    print(json.dumps({"marks": marks, "bytes": len(raw), "svgs": len(svgs)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""manterms.py - does the man page document every name a harness can meet?

    python3 manterms.py PAGE SCHEMA RESULT_H PROBES_JSON

PAGE is man/envpreflight.1, SCHEMA src/schema/envpreflight-1.schema.json,
RESULT_H include/result.h (its REASONS), PROBES_JSON the output of
`envpreflight --list-probes --format=json` (the registry).  Prints one line
a term, "ok" or "missing", a tab, and what was looked for; the rules are
those of tests/integration/docs.sh's header, which runs it.
"""
import json
import re
import sys


def normalise(text):
    """The roff source as a reader sees its words (see docs.sh)."""
    text = re.sub(r'\\f(\[[^\]]*\]|\(..|.)', '', text)
    text = text.replace('\\-', '-').replace('\\(aq', "'").replace('\\(dq', '"')
    text = re.sub(r'\\\(..', ' ', text)
    text = text.replace('\\e', '\\')
    for esc in ('\\&', '\\:', '\\|', '\\^'):
        text = text.replace(esc, '')
    text = text.replace('\\ ', ' ').replace('\\~', ' ')
    return re.sub(r'\s+', ' ', text)


def part(lines, req, title):
    """The lines of the .SH or .SS titled title, to the next .SH (or, for
    a .SS, the next .SS)."""
    out, inside = [], False
    for line in lines:
        m = re.match(r'\.(SH|SS)\s+"?(.*?)"?\s*$', line)
        if m:
            if inside and (m.group(1) == 'SH' or req == 'SS'):
                break
            if m.group(1) == req and m.group(2) == title:
                inside = True
            continue
        if inside:
            out.append(line)
    return out


def tags(lines):
    """The tags of the .TP items of lines: the line after each .TP."""
    out = set()
    for prev, line in zip(lines, lines[1:]):
        if re.match(r'\.TP\b', prev):
            out.add(normalise(re.sub(r'^\.[A-Z]+\s+', '', line)).strip())
    return out


W = 'A-Za-z0-9_-'


def found(term, text, dotted=False):
    """term in text, bounded: no letter, digit, _ or - beside it, nor (unless
    dotted) a . that joins it to one."""
    if dotted:
        before, after = r'(?<![%s])' % W, r'(?![%s])' % W
    else:
        before = r'(?<![%s])(?<![%s]\.)' % (W, W)
        after = r'(?![%s])(?!\.[%s])' % (W, W)
    return re.search(before + re.escape(term) + after, text) is not None


def marked(src):
    """What the page sets apart as a name: each bold run (\\fB to the next
    font change, or a .B line) and each quoted string ("..." of a JSON
    example, not the gap between two, or \\(dq...\\(dq), normalised,
    joined by " | "."""
    runs = re.findall(r'\\fB(.*?)\\f[RPI]', src, re.S)
    runs += [line[3:] for line in src.split('\n') if line.startswith('.B ')]
    for a, b in re.findall(r'\\\(dq(.+?)\\\(dq|"([^"\n,:\s\[\]{}][^"\n]*)"', src):
        runs.append(a or b)
    return ' | '.join(normalise(r) for r in runs)


def schema_terms(schema):
    """Every string of an enum or a const, and every property name."""
    enums, props = set(), set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == 'enum' and isinstance(v, list):
                    enums.update(x for x in v if isinstance(x, str))
                elif k == 'const' and isinstance(v, str):
                    enums.add(v)
                elif k == 'properties' and isinstance(v, dict):
                    props.update(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    return enums, props


def main(page, schema_path, result_h, probes_path):
    with open(page, encoding='utf-8') as f:
        lines = f.read().split('\n')
    with open(schema_path, encoding='utf-8') as f:
        schema = json.load(f)
    with open(result_h, encoding='utf-8') as f:
        header = f.read()

    def xmacro(name):
        # the words of one X-macro list: #define NAME(X) up to the blank
        # line that ends it (REASONS has a third column, its no-fix word)
        block = header.split('#define %s(X)' % name, 1)[1].split('\n\n', 1)[0]
        return re.findall(r'X\(\w+, "([^"]+)"(?:, \w+)?\)', block)
    in_header = xmacro('REASONS')
    no_fix_header = xmacro('NO_FIXES')
    with open(probes_path, encoding='utf-8') as f:
        probes = json.load(f)['probes']
    in_schema = schema['$defs']['reason']['enum']
    enums, props = schema_terms(schema)
    names = marked('\n'.join(lines))
    ids_text = normalise('\n'.join(part(lines, 'SH', 'CHECK IDS')))
    probe_tags = tags(part(lines, 'SS', 'Probes'))
    reason_tags = tags(part(lines, 'SH', 'REASONS'))

    def say(ok, what):
        print('%s\t%s' % ('ok' if ok else 'missing', what))

    say(bool(in_header) and sorted(in_header) == sorted(in_schema),
        "the same words in result.h's REASONS and the schema's reason enum "
        '(only in result.h: %s; only in the schema: %s)' % (
            ' '.join(sorted(set(in_header) - set(in_schema))) or '-',
            ' '.join(sorted(set(in_schema) - set(in_header))) or '-'))
    say(bool(probes), 'the registry lists probes')
    for p in probes:
        say(p['name'] in probe_tags, 'probe %s: an item of DESCRIPTION, Probes' % p['name'])
        for i in p['ids']:
            say(found(i, ids_text), 'id %s (probe %s): in CHECK IDS' % (i, p['name']))
    for r in sorted(set(in_header) | set(in_schema)):
        say(r in reason_tags, 'reason %s: an item of REASONS' % r)
    in_schema_nf = schema['$defs']['no_fix']['enum']
    say(bool(no_fix_header) and sorted(no_fix_header) == sorted(in_schema_nf),
        "the same words in result.h's NO_FIXES and the schema's no_fix enum "
        '(only in result.h: %s; only in the schema: %s)' % (
            ' '.join(sorted(set(no_fix_header) - set(in_schema_nf))) or '-',
            ' '.join(sorted(set(in_schema_nf) - set(no_fix_header))) or '-'))
    json_tags = tags(part(lines, 'SH', 'JSON'))
    for w in sorted(set(no_fix_header) | set(in_schema_nf)):
        say(w in json_tags, 'no_fix %s: an item of JSON' % w)
    for e in sorted(enums):
        say(found(e, names), 'schema enum value %s: in bold or quoted' % e)
    for k in sorted(props):
        say(found(k, names, dotted=True), 'schema property %s: in bold or quoted' % k)


if __name__ == '__main__':
    main(*sys.argv[1:5])

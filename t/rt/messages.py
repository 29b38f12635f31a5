#!/usr/bin/env python3
# messages.py TOP_SRCDIR - prints each error message that lib/brt/*.c can
# set (the format of brt_fail, brt_vfail, brt_set_last, brt_kfail and
# brt_kwarn, and of brt_str_printf where it starts "Operation Name: ")
# that no line of brt(3)'s ERRORS section matches whole (the start of one,
# for brt_str_printf, whose text may go on), a conversion matching any
# words there (A, N, REASON) and a comment after two spaces,
# "  (brt_lastError)", left out; exits 1 when one is missing. A format
# that starts with a conversion (the operation's name passed in) is
# skipped: brt(3) lists each of its expansions.
import glob
import re
import sys

top = sys.argv[1]
call = re.compile(r'\b(brt_(?:fail|vfail|set_last|kfail|kwarn)|brt_str_printf)'
                  r'\s*\(')
literal = re.compile(r'\s*"((?:[^"\\]|\\.)*)"')
conv = re.compile(r'%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|z)?[a-zA-Z]')


def formats(path):
    src = open(path).read()
    for m in call.finditer(src):
        i = src.find('"', m.end())
        if i < 0 or i > src.find(';', m.end()):
            continue
        fmt, j = '', i
        while True:
            lit = literal.match(src, j)
            if not lit:
                break
            fmt += lit.group(1)
            j = lit.end()
        fmt = fmt.replace('\\"', '"').split('\\n')[0]
        if m.group(1) == 'brt_str_printf' and \
                not re.match(r'[A-Z]\w+ \w+: ', fmt):
            continue
        if fmt and not fmt.startswith('%'):
            yield fmt, m.group(1) == 'brt_str_printf'


def errors_section(path):
    text, keep = [], False
    for line in open(path):
        if line.startswith('.SH'):
            keep = line.startswith('.SH ERRORS')
        elif keep and not line.startswith('.'):
            for a, b in (('\\-', '-'), ('\\(dq', '"'), ('\\&', ''),
                         ('\\e', '\\')):
                line = line.replace(a, b)
            text.append(re.sub(r'\s\s+\(.*\)$', '', line.rstrip('\n')))
    return text


lines = errors_section(top + '/man/brt.3')
missing = 0
for path in sorted(glob.glob(top + '/lib/brt/*.c')):
    for fmt, start in formats(path):
        rx = re.compile('.+'.join(re.escape(p) for p in conv.split(fmt))
                        + ('.*' if start else ''))
        if not any(rx.fullmatch(line) for line in lines):
            print('%s: "%s" is not in brt(3), ERRORS'
                  % (path[len(top) + 1:], fmt))
            missing = 1
sys.exit(missing)

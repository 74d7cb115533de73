#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every pass check of tests/formal/checks.tsv can fail (docs/formal.md, "Every pass has a twin").

A check that passes proves its assertions under its assumptions, and proves nothing when the
assumptions leave no run that reaches them. So every `pass` row needs a twin: a row expected to
fail, on the same harness and top with the same parameters and the same defines, plus only an
injected bug (`FV_BUG_*` or a mutation) or a reachability witness (`FV_REACH_*`), run wherever the
pass row runs (short in `make test`, deep in `make formal`) at a depth no greater than the pass
row's (any depth for a `prove` row, which holds at every depth). The twin's own run then shows,
within the pass check's depth, that its environment reaches a bug or the state the assertions
speak about. Exit 1, naming each pass row without a twin.

With --results FILE (lines "<check> ok" or "<check> bad", as scripts/formal.sh writes them
after a run), it checks that run instead: a pass check that passed while a twin of it, run
beside it, did not fail as it must is not shown non-vacuous, and is named (exit 1).

  tests/formal/check_twins.py [checks.tsv] [--results FILE]
"""
import pathlib
import sys


def rows(path):
    out = []
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip() or line.startswith('#'):
            continue
        f = [c.strip() for c in line.split('|')]
        out.append({'name': f[0], 'harness': f[1], 'top': f[2], 'params': set(f[3].split()),
                    'defines': set(f[4].split()), 'mutation': f[5], 'mode': f[6], 'short': f[7],
                    'deep': f[8], 'expect': f[9]})
    return out


def depth_covers(twin, check, col):
    """Where the check runs (that depth column), the twin runs too, and finds what it must
    within the check's depth (a `prove` check holds at every depth)."""
    if check[col] == '-':
        return True
    if twin[col] == '-':
        return False
    return check['mode'] == 'prove' or int(twin[col]) <= int(check[col])


def is_twin(twin, check):
    if twin['expect'] == 'pass':
        return False
    if (twin['harness'], twin['top']) != (check['harness'], check['top']):
        return False
    if twin['params'] != check['params'] or not check['defines'] <= twin['defines']:
        return False
    extra = twin['defines'] - check['defines']
    if not all(d.startswith(('FV_BUG_', 'FV_REACH_')) for d in extra):
        return False
    if not extra and not twin['mutation']:
        return False
    return depth_covers(twin, check, 'short') and depth_covers(twin, check, 'deep')


def check_run(checks, results_file):
    """The pass checks of a run whose twins, run beside them, did not do as they must."""
    results = dict(line.split() for line in pathlib.Path(results_file).read_text().splitlines()
                   if line.strip() and not line.startswith('#'))
    bad = 0
    for c in checks:
        if c['expect'] != 'pass' or results.get(c['name']) != 'ok':
            continue
        for t in checks:
            if is_twin(t, c) and results.get(t['name']) == 'bad':
                print(f"formal: {c['name']}: passed, but its twin {t['name']} did not fail as "
                      "it must: what its assertions speak about is not shown reached (the pass "
                      "may be vacuous)", file=sys.stderr)
                bad = 1
    return bad


def main():
    args = sys.argv[1:]
    results_file = None
    if '--results' in args:
        i = args.index('--results')
        results_file = args[i + 1]
        del args[i:i + 2]
    table = args[0] if args else pathlib.Path(__file__).with_name('checks.tsv')
    checks = rows(table)
    if results_file:
        return check_run(checks, results_file)
    missing = []
    for c in checks:
        if c['expect'] != 'pass':
            continue
        twins = [t['name'] for t in checks if is_twin(t, c)]
        if twins:
            print(f"{c['name']}: {', '.join(twins)}")
        else:
            missing.append(c['name'])
    for name in missing:
        print(f"check_twins: {name} passes with no twin under the same assumptions and depth "
              "that must fail (an FV_BUG_/FV_REACH_ define or a mutation)", file=sys.stderr)
    passes = sum(c['expect'] == 'pass' for c in checks)
    print(f"check_twins: {passes - len(missing)} of {passes} pass checks have a twin")
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())

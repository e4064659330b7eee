#!/usr/bin/env python3
"""Turns the benchmark outputs into one Markdown table, prints it, and optionally writes it into
README.md between the `<!-- bench:start -->` and `<!-- bench:end -->` markers.

usage: bench_table.py COMPARE_TXT PEERS_JSONL [--goals case=ratio,...] [--readme README.md]
"""
import argparse, datetime, json, os, platform, re


def machine():
    cpu = platform.processor() or 'unknown CPU'
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    return f'{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('compare')
    ap.add_argument('peers')
    ap.add_argument('--goals', default='')
    ap.add_argument('--readme')
    a = ap.parse_args()
    goals = dict((k, float(v)) for k, v in (g.split('=') for g in a.goals.split(',') if g))
    rows = []
    pattern = re.compile(r'^(\S+)\s+ours\s+([\d.]+) ms\s+pillow\s+([\d.]+) ms\s+ratio\s+([\d.]+)')
    with open(a.compare) as f:
        for line in f:
            m = pattern.match(line.strip())
            if m:
                case, ours, peer, ratio = m.group(1), float(m.group(2)), float(m.group(3)), float(m.group(4))
                goal = goals.get(case)
                rows.append((case, ours, 'Pillow', peer, ratio, goal))
    with open(a.peers) as f:
        for line in f:
            line = line.strip()
            if not line.startswith('{'):
                continue
            r = json.loads(line)
            peer_ms = r.get('peer_ms')
            ratio = r['median_ms'] / peer_ms if peer_ms else None
            rows.append((r['case'], r['median_ms'], r.get('peer', '-'), peer_ms, ratio, r.get('goal')))

    def fmt(v, unit=''):
        return '-' if v is None else f'{v:.2f}{unit}'

    out = ['| case | ours (median) | peer | peer (median) | ratio (ours / peer) | goal |', '|---|---|---|---|---|---|']
    for case, ours, peer, peer_ms, ratio, goal in rows:
        verdict = '' if goal is None or ratio is None else (' ✓' if ratio <= goal else ' ✗')
        out.append(f'| {case} | {fmt(ours, " ms")} | {peer} | {fmt(peer_ms, " ms")} | {fmt(ratio)}{verdict} | {"≤ " + fmt(goal) if goal else "-"} |')
    out.append('')
    out.append(f'Measured {datetime.date.today().isoformat()} on {machine()}, release build, by `scripts/bench`. '
               'A ratio below 1 means SwiftWebImage is faster. For `memory-cache-get` the ratio is the speed-up goal inverted (≤ 0.2 means at least 5x faster).')
    table = '\n'.join(out)
    print(table)
    if a.readme:
        text = open(a.readme).read()
        start, end = '<!-- bench:start -->', '<!-- bench:end -->'
        if start in text and end in text:
            before, rest = text.split(start, 1)
            _, after = rest.split(end, 1)
            open(a.readme, 'w').write(before + start + '\n' + table + '\n' + end + after)
            print(f'(written to {a.readme})')
        else:
            print(f'({a.readme} has no bench markers; not written)')


if __name__ == '__main__':
    main()
